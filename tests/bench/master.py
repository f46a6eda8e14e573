"""Master on 5 x 5 boxes: seconds per move over whole games against itself.

Not a pytest module.  Run from the repository root::

    nice python tests/bench/master.py --games 4 [--budget 2.0] [--size 5x5]

Prints the median, 95th percentile and maximum time per ``choose`` call, the
same for the moves that used their budget (not instant captures), how many
moves the exact solver answered, and any move over its budget plus 10 %.
"""

from __future__ import annotations

import argparse
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
    times: list[float] = []
    over: list[tuple[int, float]] = []
    solved = 0
    budget = args.budget or players.default_budget("master", Board(width, height))
    for game in range(args.games):
        board = Board(width, height)
        while not board.is_over():
            start = time.perf_counter()
            edge, _, exact = players._master(board, budget, start + budget - 0.02, game)
            elapsed = time.perf_counter() - start
            times.append(elapsed)
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
    print(f"  moves with an exact value: {solved} of {len(times)}")
    print(f"  moves over budget + 10 %: {len(over)} {over[:5]}")


if __name__ == "__main__":
    main()
