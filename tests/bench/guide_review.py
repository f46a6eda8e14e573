"""Benchmark of "Learn from this game" (a script, not a pytest test).

    python tests/bench/guide_review.py                 # 5 x 5 games, club against casual
    python tests/bench/guide_review.py --games 5 --size 4x4

Plays games between two computer levels, then runs the review exactly as the
site does (``review_moves`` with the site's budgets) on every move of the
game, and prints per game: the wall time, how many of the moves got an exact
verdict, and how many of those lost boxes.  Medians at the end.  The machine
may be shared with other work: compare with a quiet run before concluding.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dotsboxes.engine import solver
from dotsboxes.engine.players import choose
from dotsboxes.guide.review import BUDGET_PER_POSITION, TOTAL_BUDGET, review_moves
from dotsboxes.rules import Board


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--size", default="5x5")
    parser.add_argument("--blue", default="club")
    parser.add_argument("--red", default="casual")
    args = parser.parse_args()
    w, h = (int(n) for n in args.size.split("x"))
    walls, shares = [], []
    for seed in range(args.games):
        board = Board(w, h)
        while not board.is_over():
            level = args.blue if board.turn.name == "BLUE" else args.red
            board.push(choose(board, level=level, budget=0.2, seed=seed))
        edges = [str(e) for e in board.move_stack]
        solver.clear_cache()  # a worker process starts cold
        start = time.perf_counter()
        out = review_moves(
            Board(w, h).key(),
            edges,
            list(range(len(edges))),
            budget=BUDGET_PER_POSITION,
            total=TOTAL_BUDGET,
        )
        wall = time.perf_counter() - start
        checked = out["checked"]
        lost = sum(
            1 for c in checked.values() if c["values"][c["played"]] < max(c["values"].values())
        )
        walls.append(wall)
        shares.append(len(checked) / len(edges))
        print(
            f"game {seed}: {board.outcome()}, {len(edges)} edges, reviewed in {wall:.2f} s, "
            f"{len(checked)} checked ({100 * len(checked) / len(edges):.0f}%), {lost} lost boxes"
        )
    print(
        f"median: {statistics.median(walls):.2f} s, "
        f"{100 * statistics.median(shares):.0f}% of the moves checked"
    )


if __name__ == "__main__":
    main()
