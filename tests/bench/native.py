"""The native solver core beside the Python core (a script, not a pytest test).

    python tests/bench/native.py rates                 # nodes/s and time, same positions
    python tests/bench/native.py diff --positions 20000  # the full differential test
    python tests/bench/native.py empty --sizes 3x3,4x3   # empty boards through the protocol
    python tests/bench/native.py settle --undrawn 37     # native: 5 x 5 endgames to the end

``rates``: random mid-game positions (4 x 4, 5 x 4 and 5 x 5 with 20 to 24
undrawn edges, and 3 x 7) solved from a fresh table by each core in turn:
nodes per CPU second (median and p5 over positions) and the ratio of CPU
times on the same positions.  ``diff``: ``tests/engine/differential.py`` over
N positions.  ``empty``: each board in a fresh process through
``python -m dotsboxes.engine`` (``solve``, the product's table), per backend,
with value, wall and CPU time and peak memory.  ``settle``: the endgame suite's
positions (``tests/bench/data/endgames.json``) with at least ``--undrawn`` edges
left, each solved to the end by the native core from a fresh table (values
checked against the suite): nodes, CPU seconds and their median and p90 per
position, the time master's solver needs to settle them.  CPU time, not wall: the
machine may be shared.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dotsboxes.engine import _backend, solver  # noqa: E402
from dotsboxes.rules import Board  # noqa: E402
from tests.engine.differential import backend, check, positions, random_position  # noqa: E402


def rate_positions(count: int, seed: int) -> list:
    rng = random.Random(seed)
    sizes = [(4, 4, 22), (5, 4, 21), (5, 5, 20), (3, 7, 21), (4, 3, 24)]
    return [random_position(rng, *sizes[i % len(sizes)]) for i in range(count)]


def rates(args: argparse.Namespace) -> None:
    boards = rate_positions(args.positions, args.seed)
    per = {}
    for name in ("python", "native"):
        rows = []
        with backend(name):
            for board in boards:
                stats: dict[str, int] = {}
                cpu = time.process_time()
                solution = solver.solve(board, table=solver.Table(), stats=stats)
                cpu = time.process_time() - cpu
                rows.append((stats["nodes"], max(cpu, 1e-6), solution.value))
        per[name] = rows
    assert [r[2] for r in per["python"]] == [r[2] for r in per["native"]], "values differ"
    out = {"positions": len(boards)}
    for name, rows in per.items():
        node_rates = sorted(n / c for n, c, _ in rows)
        out[name] = {
            "nodes": sum(n for n, _, _ in rows),
            "cpu_s": round(sum(c for _, c, _ in rows), 3),
            "nodes_per_s_total": round(sum(n for n, _, _ in rows) / sum(c for _, c, _ in rows)),
            "nodes_per_s_median": round(statistics.median(node_rates)),
        }
    ratios = sorted(p[1] / n[1] for p, n in zip(per["python"], per["native"], strict=True))
    out["cpu_ratio_total"] = round(out["python"]["cpu_s"] / out["native"]["cpu_s"], 1)
    out["cpu_ratio_median"] = round(statistics.median(ratios), 1)
    out["cpu_ratio_p5"] = round(ratios[len(ratios) // 20], 1)
    out["node_rate_ratio"] = round(
        out["native"]["nodes_per_s_total"] / out["python"]["nodes_per_s_total"], 1
    )
    print(json.dumps(out, indent=1))


def diff(args: argparse.Namespace) -> None:
    cpu, bad = time.process_time(), 0
    for i, board in enumerate(positions(args.positions, seed=args.seed)):
        problems = check(board, i)
        bad += bool(problems)
        for p in problems:
            print("DIFFERENT", p, flush=True)
        if (i + 1) % 1000 == 0:
            print(f"{i + 1} positions, {bad} different", file=sys.stderr, flush=True)
    print(
        json.dumps(
            {
                "positions": args.positions,
                "different": bad,
                "cpu_s": round(time.process_time() - cpu, 1),
            }
        )
    )
    sys.exit(1 if bad else 0)


def empty(args: argparse.Namespace) -> None:
    for size in args.sizes.split(","):
        w, h = size.split("x")
        for name in args.backends.split(","):
            script = (
                "import resource,sys,time,io\n"
                "from dotsboxes.engine.protocol import serve\n"
                "out=io.StringIO(); c=time.process_time(); t=time.perf_counter()\n"
                f"serve(['size {w} {h}', 'solve movetime {args.seconds * 1000}'], out)\n"
                "print(repr(out.getvalue()), time.perf_counter()-t, time.process_time()-c,"
                " resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
            )
            env = dict(os.environ, DOTSBOXES_ENGINE_BACKEND=name)
            run = subprocess.run(
                [sys.executable, "-c", script],
                env=env,
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            )
            text, wall, cpu, rss = run.stdout.rsplit(" ", 3)
            lines = ast.literal_eval(text).split("\n")  # ok, info nodes N time T, value...
            info = next(x for x in lines if x.startswith("info"))
            answer = next(x for x in lines if x.startswith(("value", "unknown")))
            print(
                json.dumps(
                    {
                        "size": size,
                        "backend": name,
                        "answer": answer.split(" best")[0],
                        "info": info,
                        "wall_s": round(float(wall), 3),
                        "cpu_s": round(float(cpu), 3),
                        "peak_mb": round(int(rss) / 1024),
                    }
                ),
                flush=True,
            )


def settle(args: argparse.Namespace) -> None:
    data = json.loads((ROOT / "tests" / "bench" / "data" / "endgames.json").read_text())
    chosen = [p for p in data["positions"] if p["undrawn"] >= args.undrawn]
    cpus, nodes = [], 0
    with backend("native"):
        for p in chosen:
            board = Board.from_key(p["key"])
            stats: dict[str, int] = {}
            cpu = time.process_time()
            solution = solver.solve(board, table=solver.Table(), stats=stats)
            cpus.append(time.process_time() - cpu)
            nodes += stats["nodes"]
            assert solution.value == p["value"], (p["key"], solution.value, p["value"])
    cpus.sort()
    print(
        json.dumps(
            {
                "positions": len(chosen),
                "nodes": nodes,
                "cpu_s": round(sum(cpus), 2),
                "nodes_per_s": round(nodes / sum(cpus)),
                "cpu_s_median": round(statistics.median(cpus), 3),
                "cpu_s_p90": round(cpus[int(0.9 * len(cpus))], 3),
                "load": round(os.getloadavg()[0], 1),
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("rates")
    p.add_argument("--positions", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p = sub.add_parser("diff")
    p.add_argument("--positions", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=100)
    p = sub.add_parser("empty")
    p.add_argument("--sizes", default="3x3,4x3")
    p.add_argument("--backends", default="native,python")
    p.add_argument("--seconds", type=int, default=3600)
    p = sub.add_parser("settle")
    p.add_argument("--undrawn", type=int, default=37)
    args = parser.parse_args()
    if _backend.native is None:
        sys.exit("the C extension is not built: pip install -e . with a C compiler")
    {"rates": rates, "diff": diff, "empty": empty, "settle": settle}[args.command](args)


if __name__ == "__main__":
    main()
