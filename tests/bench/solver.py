"""Benchmark of the exact solver (a script, not a pytest test).

    python tests/bench/solver.py                      # empty boards up to 3 x 3, 5 x 5 mid-games
    python tests/bench/solver.py --sizes 3x3,4x3,3x4 --midgame 0   # chosen empty boards
    python tests/bench/solver.py --midgame 40 --budget 2

Each empty board is solved in a fresh process (cold transposition table)
through the engine protocol (``size W H``, ``solve movetime MS``), with the
product's table size (the setting ``DOTSBOXES_ENGINE_TABLE_MB``), and reported
with its value, nodes, wall and CPU time and the peak resident memory of that
process: what the product runs, not the bare solver with a bigger table.  The
machine may be shared: compare CPU time with wall time.  Then random 5 x 5
positions with 20 to 30 edges drawn (of 60, safe edges first, as games go;
``--drawn``) are solved with a time budget, as the master level does, and the
share that finishes is printed.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dotsboxes.engine import solver  # noqa: E402
from dotsboxes.engine.protocol import serve  # noqa: E402
from dotsboxes.rules import Board  # noqa: E402

PUBLISHED = {
    (1, 1): -1,
    (2, 1): 0,
    (3, 1): -1,
    (4, 1): 0,
    (2, 2): 2,
    (3, 2): -2,
    (4, 2): 2,
    (5, 2): -2,
    (3, 3): -3,
    (5, 3): -1,
    (4, 4): 0,
    (5, 4): 0,
}


def solve_one(width: int, height: int, movetime_ms: int) -> dict:
    """Solve one empty board through the protocol in this process, with the
    product's settings (the table the setting ``DOTSBOXES_ENGINE_TABLE_MB``
    sizes, default 512 MB), and describe the run."""
    out = io.StringIO()
    wall, cpu = time.perf_counter(), time.process_time()
    serve([f"size {width} {height}", f"solve movetime {movetime_ms}"], out)
    lines = out.getvalue().splitlines()
    info, answer = lines[-2].split(), lines[-1].split()
    solved = answer[0] == "value"
    return {
        "size": f"{width}x{height}",
        "value": int(answer[1]) if solved else None,
        "answer": " ".join(answer[:5]),
        "published": PUBLISHED.get((width, height)),
        "best": len(answer) - 3 if solved else 0,
        "nodes": int(info[info.index("nodes") + 1]),
        "wall": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "table_mb": solver.TABLE_MB,
    }


def empty_boards(sizes: list[tuple[int, int]], movetime_ms: int) -> None:
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"protocol 'solve movetime {movetime_ms}', table {solver.TABLE_MB} MB")
    print(
        f"{'board':>6} {'value':>5} {'known':>5} {'best':>4} {'nodes':>10} "
        f"{'wall s':>8} {'cpu s':>8} {'peak MB':>8}"
    )
    for w, h in sizes:
        out = subprocess.run(
            [sys.executable, __file__, "--one", f"{w}x{h}", "--movetime", str(movetime_ms)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        r = json.loads(out)
        known = "" if r["published"] is None else r["published"]
        # An unfinished solve (no value) is no mismatch.
        unchecked = None in (r["published"], r["value"])
        mark = "" if unchecked or r["published"] == r["value"] else "  MISMATCH"
        value = r["value"] if r["value"] is not None else r["answer"]
        print(
            f"{r['size']:>6} {value!s:>5} {known!s:>5} {r['best']:>4} {r['nodes']:>10} "
            f"{r['wall']:>8.2f} {r['cpu']:>8.2f} {r['peak_mb']:>8.0f}{mark}",
            flush=True,
        )


def midgame_position(rng: random.Random, drawn: int) -> Board:
    # Players avoid third sides while they can: draw safe edges first, as games go.
    board = Board(5, 5)
    while len(board.drawn) < drawn:
        moves = board.legal_moves
        safe = [e for e in moves if all(board.sides(b) < 2 for b in board.edge_boxes(e))]
        board.push(rng.choice(safe or moves))
    return board


def midgames(count: int, budget: float, low: int, nodes: int | None) -> None:
    rng = random.Random(2026)
    limit = f"max_nodes={nodes}" if nodes else f"budget={budget} s"
    print(f"\n5 x 5 positions with {low}-{low + 10} edges drawn, solve({limit}), one table:")
    by_drawn: dict[int, list[float | None]] = {}
    overrun = 0.0
    cpus: list[float] = []
    walls: list[float] = []
    solved_nodes: list[int] = []
    solved_cpu: list[float] = []
    for i in range(count):
        drawn = low + i % 11
        board = midgame_position(rng, drawn)
        start, cpu = time.perf_counter(), time.process_time()
        if nodes:
            result = solver.solve(board, max_nodes=nodes)  # no clock: load does not matter
        else:
            result = solver.solve(board, budget=budget)
        took = time.perf_counter() - start
        cpus.append(time.process_time() - cpu)
        walls.append(took)
        overrun = max(overrun, took - budget)
        by_drawn.setdefault(drawn, []).append(took if result is not None else None)
        if result is not None:
            solved_nodes.append(result.nodes)
            solved_cpu.append(cpus[-1])
    print(f"{'drawn':>5} {'solved':>8} {'median s (solved)':>18}")
    for drawn in sorted(by_drawn):
        runs = by_drawn[drawn]
        done = [t for t in runs if t is not None]
        med = f"{statistics.median(done):.3f}" if done else "-"
        print(f"{drawn:>5} {len(done):>3}/{len(runs):<4} {med:>18}")
    if solved_nodes:
        rate = sum(solved_nodes) / max(1e-9, sum(solved_cpu))
        print(
            f"solved: median {statistics.median(solved_nodes)} nodes, {rate:,.0f} nodes per CPU s"
        )
    if nodes:
        print(f"(limited to {nodes} nodes, not by the clock)")
        return
    print(f"largest overrun of the budget: {overrun * 1000:.1f} ms (wall clock)")
    print(f"CPU time / wall time while searching: {sum(cpus) / max(1e-9, sum(walls)):.0%}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1x1,2x1,3x1,4x1,2x2,3x2,4x2,3x3")
    parser.add_argument("--midgame", type=int, default=44, help="5 x 5 positions to try (0: none)")
    parser.add_argument("--budget", type=float, default=2.0)
    parser.add_argument("--drawn", type=int, default=20, help="fewest edges drawn (of 60)")
    parser.add_argument("--nodes", type=int, help="limit by nodes instead of the clock")
    parser.add_argument(
        "--movetime", type=int, default=1_800_000, help="ms for each empty board's solve"
    )
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        w, h = (int(n) for n in args.one.split("x"))
        print(json.dumps(solve_one(w, h, args.movetime)))
        return
    sizes = [tuple(int(n) for n in s.split("x")) for s in args.sizes.split(",") if s]
    empty_boards(sizes, args.movetime)
    if args.midgame:
        midgames(args.midgame, args.budget, args.drawn, args.nodes)


if __name__ == "__main__":
    main()
