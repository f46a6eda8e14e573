"""Benchmark of game analysis and of the analysis board (a script, not a pytest test).

    nice -n 10 python tests/bench/analysis.py games --games 20      # master against club, 5 x 5
    nice -n 10 python tests/bench/analysis.py board --positions 20

``games`` plays master (2 s) against club, colours alternating, then runs
:func:`dotsboxes.engine.annotate.annotate` with the site's settings on one
core, cold tables, and prints per game: CPU seconds, the first ply whose
value is exact and how many edges were undrawn there.  Medians and p95 at the
end.  Games are cached in ``/tmp`` (playing master is the slow part).

``board`` times what the analysis board does for a position: the first values
(:func:`dotsboxes.analysis.board_values`, quick pass) and the exact pass, on
positions taken from those games at 45 and 32 undrawn edges.
The machine may be shared: compare with a quiet run before concluding.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dotsboxes.engine import annotate, board_values, solver
from dotsboxes.engine.players import choose
from dotsboxes.rules import Board, Edge

CACHE = Path("/tmp/dotsboxes-bench-analysis-games.json")


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]


def play(seed: int, size: tuple[int, int]) -> list[str]:
    board = Board(*size)
    levels = ("master", "club") if seed % 2 == 0 else ("club", "master")
    edges = []
    while not board.is_over():
        level = levels[board.turn.value]
        edge = choose(board, level=level, seed=seed, hard_stop=False)
        board.play(edge)
        edges.append(str(edge))
    return edges


def games(n: int, size: tuple[int, int]) -> list[list[str]]:
    stored = json.loads(CACHE.read_text()) if CACHE.exists() else {}
    key = f"{size[0]}x{size[1]}"
    have = stored.setdefault(key, [])
    while len(have) < n:
        t = time.perf_counter()
        have.append(play(len(have), size))
        print(f"played game {len(have)} in {time.perf_counter() - t:.0f} s", flush=True)
        CACHE.write_text(json.dumps(stored))
    return have[:n]


def node_rate() -> float:
    """Solver nodes per CPU second right now (the empty 3 x 3 board, cold table).

    One core of the reference machine does 80-100 thousand when quiet: the ratio
    says how much a loaded machine inflates the CPU seconds measured here.
    """
    solver.clear_cache()
    t = time.process_time()
    nodes = solver.solve(Board(3, 3)).nodes
    return nodes / (time.process_time() - t)


def bench_games(args: argparse.Namespace) -> None:
    size = tuple(int(n) for n in args.size.split("x"))
    cpu, reach, undrawn = [], [], []
    print(f"solver rate before: {node_rate():,.0f} nodes per CPU second", flush=True)
    for i, edges in enumerate(games(args.games, size)):
        if i < args.skip:
            continue
        solver.clear_cache()
        t = time.process_time()
        result = annotate.annotate(*size, edges)
        spent = time.process_time() - t
        cpu.append(spent)
        reach.append(result["exact_from"])
        undrawn.append(result["exact_undrawn"])
        estimates = sum(1 for e in result["edges"] if not e["exact"])
        print(
            f"game {i + 1}: {len(edges)} edges, cpu {spent:.1f} s, exact from ply "
            f"{result['exact_from']} ({result['exact_undrawn']} undrawn), {estimates} estimates",
            flush=True,
        )
    print(f"solver rate after: {node_rate():,.0f} nodes per CPU second")
    print(
        f"\nCPU per game: median {statistics.median(cpu):.1f} s, p95 {p95(cpu):.1f} s, "
        f"max {max(cpu):.1f} s"
    )
    print(
        f"exact reach (undrawn edges at the first exact position): median "
        f"{statistics.median(undrawn)}, min {min(undrawn)}, max {max(undrawn)}; "
        f"games exact from >= 36 undrawn: {sum(1 for u in undrawn if u >= 36)} of {len(undrawn)}"
    )


def bench_board(args: argparse.Namespace) -> None:
    size = tuple(int(n) for n in args.size.split("x"))
    firsts, first_cpu, exacts, exact_cpu, exact_share = [], [], [], [], []
    for edges in games(args.positions, size):
        for undrawn in (45, 32):
            board = Board(*size)
            for text in edges[: len(board.edges) - undrawn]:
                board.play(Edge.parse(text))
            solver.clear_cache()
            t, c = time.perf_counter(), time.process_time()
            first = board_values.quick(board.key())
            firsts.append(time.perf_counter() - t)
            first_cpu.append(time.process_time() - c)
            if undrawn == 32:
                # What the page shows: the quick pass may already be exact; else the deep one.
                t, c = time.perf_counter(), time.process_time()
                result = (
                    first if first["exact"] else board_values.deep(board.key(), budget=args.cap)
                )
                exacts.append(time.perf_counter() - t + firsts[-1])
                exact_cpu.append(time.process_time() - c + first_cpu[-1])
                exact_share.append(result["exact"])
    print(
        f"first values (45 and 32 undrawn): wall median {statistics.median(firsts):.2f} s, "
        f"p95 {p95(firsts):.2f} s; CPU median {statistics.median(first_cpu):.2f} s, "
        f"p95 {p95(first_cpu):.2f} s"
    )
    print(
        f"exact at 32 undrawn (both passes): wall median {statistics.median(exacts):.2f} s, "
        f"p95 {p95(exacts):.2f} s; CPU median {statistics.median(exact_cpu):.2f} s, "
        f"p95 {p95(exact_cpu):.2f} s; exact in {sum(exact_share)} of {len(exact_share)} "
        f"within the {args.cap} s cap"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("games", "board"))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--skip", type=int, default=0, help="games to leave out at the start")
    parser.add_argument("--size", default="5x5")
    parser.add_argument("--cap", type=float, default=5.0)
    args = parser.parse_args()
    (bench_games if args.what == "games" else bench_board)(args)


if __name__ == "__main__":
    main()
