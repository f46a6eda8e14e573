"""The native core under AddressSanitizer + UndefinedBehaviorSanitizer (a script).

    python tests/bench/sanitize.py                  # the CI differential positions (2,000)
    python tests/bench/sanitize.py --positions 20000

Builds ``dotsboxes/engine/native/solver.c`` and ``search.c`` with
``-fsanitize=address,undefined`` into a temporary directory, then runs the
differential test's positions (``tests/engine/differential.py``: both cores,
every check), the search's positions (``tests/engine/test_native_search.py``:
both searches, both leaf kinds, a kept table) plus the bad-input cases in a
child process that loads those builds as ``dotsboxes.engine._native`` and
``_native_search``,
with libasan preloaded (the Python interpreter itself is not instrumented;
leak detection is off, since CPython keeps objects alive at exit on purpose).
Counts the sanitizers' reports in its output: the run passes with 0.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import importlib.util, sys
def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[name] = module
    return module
module = load("dotsboxes.engine._native", sys.argv[1])
searcher = load("dotsboxes.engine._native_search", sys.argv[4])
sys.path.insert(0, sys.argv[2])
from dotsboxes.engine import _backend, search, solver
from dotsboxes.engine._bits import geometry
from dotsboxes.rules import Board
from tests.engine.differential import check, positions
from tests.engine.test_native_search import boards, test_bad_input_raises
assert _backend.native is module and _backend.BACKEND == "native"
assert _backend.native_search is searcher
bad = 0
n = int(sys.argv[3])
per = 250
for chunk in range((n + per - 1) // per):
    for i, board in enumerate(positions(min(per, n - chunk * per), seed=chunk)):
        problems = check(board, i)
        bad += bool(problems)
        for p in problems:
            print("DIFFERENT", p)
# The search: every position of its differential test, both leaf kinds, a kept table.
table = {}
for i, board in enumerate(boards(max(20, n // 10), seed=0)):
    for playouts in (0, 8):
        python = search.python_search(board, max_nodes=2_000, playouts=playouts, seed=i)
        native = search.native_search(board, max_nodes=2_000, playouts=playouts, seed=i)
        kept = search.native_search(board, max_nodes=2_000, playouts=playouts, table=table)
        assert native.edge in board.legal_moves and kept.edge in board.legal_moves
        if python.exact and native.exact and python.value != native.value:
            bad += 1
            print("DIFFERENT search", board.key(), python, native)
test_bad_input_raises()
# Bad input and edge cases: each must raise, never crash.
geo = _backend.native_geometry(geometry(3, 3))
table = module.Table(100)
for call in (
    lambda: module.Search(table, geo, 1 << 40),
    lambda: module.Search(table, geo, 1 << 300),
    lambda: module.Search(table, geo, -5),
    lambda: module.Search(table, geo, 1).move_value(99),
    lambda: module.Search(table, geo, 1).move_bounds(-1),
    lambda: module.Search(table, _backend.native_geometry(geometry(4, 4)), 0),
    lambda: module.Table(0),
    lambda: module.loony_value([(2, 3)]),
):
    try:
        call()
    except (ValueError, TypeError, OverflowError):
        pass
    else:
        raise SystemExit("bad input accepted")
with_tiny = solver.Table(limit=40)
assert solver.solve(Board(3, 2), table=with_tiny).value == -2
assert solver.solve(Board(7, 7), max_nodes=20_000, table=solver.Table()) is None
print("positions", n, "different", bad)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=2_000)
    parser.add_argument("--cc", default=os.environ.get("CC", "gcc"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        out = Path(tmp) / ("_native" + suffix)
        out_search = Path(tmp) / ("_native_search" + suffix)
        flags = "-std=c11 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined"
        flags += " -fno-sanitize-recover=undefined -shared -fPIC"
        include = sysconfig.get_paths()["include"]
        for source, target in (("solver.c", out), ("search.c", out_search)):
            cmd = [
                args.cc,
                *flags.split(),
                f"-I{include}",
                str(ROOT / "dotsboxes/engine/native" / source),
            ]
            subprocess.run([*cmd, "-o", str(target)], check=True)
        libasan = subprocess.run(
            [args.cc, "-print-file-name=libasan.so"], capture_output=True, text=True, check=True
        ).stdout.strip()
        env = dict(
            os.environ,
            LD_PRELOAD=libasan,
            ASAN_OPTIONS="detect_leaks=0:abort_on_error=0",
            UBSAN_OPTIONS="print_stacktrace=1",
            DOTSBOXES_ENGINE_BACKEND="native",
            PYTHONMALLOC="malloc",
        )
        run = subprocess.run(
            [
                sys.executable,
                "-c",
                CHILD,
                str(out),
                str(ROOT),
                str(args.positions),
                str(out_search),
            ],
            env=env,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
    text = run.stdout + run.stderr
    reports = text.count("ERROR: AddressSanitizer") + text.count("runtime error:")
    print(text[-3000:])
    print(f"sanitizer reports: {reports}; exit status {run.returncode}")
    sys.exit(1 if reports or run.returncode else 0)


if __name__ == "__main__":
    main()
