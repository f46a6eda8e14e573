"""Master on 5 x 5 boxes: seconds per move over whole games against itself.

Not a pytest module.  Run from the repository root::

    nice -n 10 python tests/bench/master.py --games 4 [--budget 2.0] [--size 5x5]

Each move runs as in real play, hard stop included.  Prints the median, 95th
percentile and maximum wall time per move, the same for CPU time (the wall
time less what other processes took: on a loaded machine the difference is
the scheduler's), how many moves the exact solver answered, any move over its
budget plus 10 %, and the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dotsboxes.engine import players
from dotsboxes.rules import Board


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--budget", type=float, default=None, help="seconds (default: level's)")
    parser.add_argument("--size", default="5x5")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    times: list[float] = []
    cpu: list[float] = []
    over: list[tuple[int, float]] = []
    solved = 0
    stopped = 0  # moves that ran into the hard stop
    budget = args.budget or players.default_budget("master", Board(width, height))
    for game in range(args.games):
        board = Board(width, height)
        memory = players.Game()  # tables kept across the game's moves, as the product does
        while not board.is_over():
            start, start_cpu = time.perf_counter(), time.process_time()
            thought = memory.think(board, budget=budget, seed=game)
            edge, exact = thought.edge, thought.exact
            elapsed = time.perf_counter() - start
            stopped += thought.stopped
            times.append(elapsed)
            cpu.append(time.process_time() - start_cpu)
            solved += exact
            if elapsed > budget * 1.1:
                over.append((game, elapsed))
            board.play(edge)
        blue, red = board.scores
        print(f"game {game + 1}: Blue {blue} - Red {red}", flush=True)
    print(f"\nmaster, {args.size} boxes, budget {budget:.2f} s, {len(times)} moves")
    print(
        f"  per move   median {statistics.median(times):.3f} s   "
        f"p95 {percentile(times, 0.95):.3f} s   max {max(times):.3f} s"
    )
    print(
        f"  CPU        median {statistics.median(cpu):.3f} s   "
        f"p95 {percentile(cpu, 0.95):.3f} s   max {max(cpu):.3f} s"
    )
    print(f"  moves with an exact value: {solved} of {len(times)}")
    # Where the budget goes: easy moves should stay fast, hard ones use it.
    edges = (0.01, 0.05, 0.25, 0.5, 0.9, 1.1, float("inf"))
    counts = [0] * len(edges)
    for t in times:
        counts[next(i for i, e in enumerate(edges) if t / budget <= e)] += 1
    labels = ["<=1%", "<=5%", "<=25%", "<=50%", "<=90%", "<=110%", ">110%"]
    shares = "  ".join(f"{a} {c}" for a, c in zip(labels, counts, strict=True))
    print(f"  time used / budget: {shares}")
    print(f"  moves that ran into the hard stop: {stopped}")
    print(f"  moves over budget + 10 %: {len(over)} {over[:5]}")
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
