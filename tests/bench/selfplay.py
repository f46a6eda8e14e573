"""Self-play table: each computer level against the one below.

Not a pytest module (no ``test_`` prefix).  Run from the repository root::

    nice python tests/bench/selfplay.py --games 20 --sizes 3x3 5x5

Colours alternate game by game; seeds differ per game so the games differ.
Prints, per size and pairing, the wins, losses and ties of the stronger level
and the average box margin, then the time per move of each level.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dotsboxes.engine.players import LEVELS, choose, default_budget
from dotsboxes.rules import Board, Player


def play(width: int, height: int, blue: str, red: str, seed: int, scale: float, times) -> int:
    """One game; returns Blue's final margin."""
    board = Board(width, height)
    while not board.is_over():
        level = blue if board.turn is Player.BLUE else red
        budget = default_budget(level, board) * scale
        start = time.perf_counter()
        edge = choose(board, level=level, budget=budget, seed=seed)
        times[level].append(time.perf_counter() - start)
        board.play(edge)
    blue_boxes, red_boxes = board.scores
    return blue_boxes - red_boxes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--sizes", nargs="+", default=["3x3", "5x5"])
    parser.add_argument("--levels", nargs="+", default=list(LEVELS))
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every budget")
    args = parser.parse_args()
    times: dict[str, list[float]] = defaultdict(list)
    print(f"{'size':>5}  {'stronger':>8} vs {'weaker':<8}  {'W':>3} {'L':>3} {'T':>3}  margin")
    for size in args.sizes:
        w, h = (int(n) for n in size.split("x"))
        for weak, strong in zip(args.levels, args.levels[1:], strict=False):
            wins = losses = ties = 0
            margins = []
            for game in range(args.games):
                strong_blue = game % 2 == 0
                blue, red = (strong, weak) if strong_blue else (weak, strong)
                margin = play(w, h, blue, red, seed=game, scale=args.scale, times=times)
                margin = margin if strong_blue else -margin
                margins.append(margin)
                wins += margin > 0
                losses += margin < 0
                ties += margin == 0
            print(
                f"{size:>5}  {strong:>8} vs {weak:<8}  {wins:>3} {losses:>3} {ties:>3}  "
                f"{statistics.mean(margins):+.1f}",
                flush=True,
            )
    print("\nseconds per move (median / max):")
    for level in args.levels:
        if times[level]:
            print(f"  {level:>8}: {statistics.median(times[level]):.3f} / {max(times[level]):.3f}")


if __name__ == "__main__":
    main()
