"""Self-play table: each computer level against the one below.

Not a pytest module (no ``test_`` prefix).  Run from the repository root::

    nice -n 10 python tests/bench/selfplay.py --games 20 --sizes 3x3 5x5 [--no-hard-stop]

Colours alternate game by game (the stronger level is Blue, the first
player, in even games) and every game has its own seed, which orders each
level's equally good moves: the games differ from the first moves on.  Prints,
per size and pairing, the wins, losses and ties of the stronger level, its
wins as Blue and as Red, how many of the games were distinct move sequences,
the average box margin, then each level's seconds per move (wall and CPU)
and how many moves went over their budget plus 10 %.

``--no-hard-stop`` leaves the node limits alone in charge
(``choose(hard_stop=False)``): the table is then the same on any machine,
however loaded.  With the hard stop (the default, as in real play) a loaded
machine cuts some searches short and the figures move a little.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dotsboxes.engine.players import LEVELS, choose, default_budget
from dotsboxes.rules import Board, Player


def play(
    width: int, height: int, blue: str, red: str, seed: int, args, times, cpu, over, moves
) -> int:
    """One game; returns Blue's final margin."""
    board = Board(width, height)
    while not board.is_over():
        level = blue if board.turn is Player.BLUE else red
        budget = default_budget(level, board) * args.scale
        start, start_cpu = time.perf_counter(), time.process_time()
        edge = choose(board, level=level, budget=budget, seed=seed, hard_stop=args.hard_stop)
        elapsed = time.perf_counter() - start
        times[level].append(elapsed)
        cpu[level].append(time.process_time() - start_cpu)
        over[level] += elapsed > budget * 1.1
        moves.append(str(edge))
        board.play(edge)
    blue_boxes, red_boxes = board.scores
    return blue_boxes - red_boxes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--sizes", nargs="+", default=["3x3", "5x5"])
    parser.add_argument("--levels", nargs="+", default=list(LEVELS))
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every budget")
    parser.add_argument(
        "--no-hard-stop", dest="hard_stop", action="store_false", help="node limits only"
    )
    args = parser.parse_args()
    times: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    over: dict[str, int] = defaultdict(int)
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(
        f"{'size':>5}  {'stronger':>8} vs {'weaker':<8}  {'W':>3} {'L':>3} {'T':>3}  "
        f"{'as Blue':>7} {'as Red':>6}  distinct  margin"
    )
    for size in args.sizes:
        w, h = (int(n) for n in size.split("x"))
        for weak, strong in zip(args.levels, args.levels[1:], strict=False):
            margins = []
            games = set()
            for game in range(args.games):
                strong_blue = game % 2 == 0
                blue, red = (strong, weak) if strong_blue else (weak, strong)
                moves: list[str] = []
                margin = play(w, h, blue, red, game, args, times, cpu, over, moves)
                margins.append(margin if strong_blue else -margin)
                games.add(tuple(moves))
            wins = sum(m > 0 for m in margins)
            losses = sum(m < 0 for m in margins)
            print(
                f"{size:>5}  {strong:>8} vs {weak:<8}  {wins:>3} {losses:>3} "
                f"{len(margins) - wins - losses:>3}  {sum(m > 0 for m in margins[::2]):>7} "
                f"{sum(m > 0 for m in margins[1::2]):>6}  {len(games):>8}  "
                f"{statistics.mean(margins):+.1f}",
                flush=True,
            )
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("\nseconds per move, wall median / max, CPU median / max, moves over budget + 10 %:")
    for level in args.levels:
        if times[level]:
            print(
                f"  {level:>8}: {statistics.median(times[level]):.3f} / {max(times[level]):.3f}"
                f"   {statistics.median(cpu[level]):.3f} / {max(cpu[level]):.3f}"
                f"   {over[level]} of {len(times[level])}"
            )


if __name__ == "__main__":
    main()
