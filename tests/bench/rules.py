"""Benchmark of the rules core (a script, not a test): ``python tests/bench/rules.py``.

Prints the median of several runs, on one core, of
- push+pop pairs per second (``Board.push_index`` + ``Board.pop``, the engine's path,
  and ``Board.push`` by ``Edge``, the convenient path), target >= 300,000;
- random 5 x 5 playouts per second (each draws all 60 edges with ``push``).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dotsboxes.rules import Board

TARGET_PAIRS = 300_000


def _midgame(seed: int = 1) -> Board:
    """A 5 x 5 position with 20 edges drawn, so pushes sometimes claim boxes."""
    rng = random.Random(seed)
    board = Board(5, 5)
    for _ in range(20):
        board.push(rng.choice(board.legal_moves))
    return board


def push_pop_index_pairs(n: int) -> float:
    board = _midgame()
    indices = [board.index(e) for e in board.legal_moves]
    push, pop = board.push_index, board.pop
    start = time.perf_counter()
    for _ in range(n // len(indices)):
        for i in indices:
            push(i)
            pop()
    elapsed = time.perf_counter() - start
    return (n // len(indices)) * len(indices) / elapsed


def push_pop_edge_pairs(n: int) -> float:
    board = _midgame()
    edges = board.legal_moves
    push, pop = board.push, board.pop
    start = time.perf_counter()
    for _ in range(n // len(edges)):
        for e in edges:
            push(e)
            pop()
    elapsed = time.perf_counter() - start
    return (n // len(edges)) * len(edges) / elapsed


def playouts(n: int) -> float:
    rng = random.Random(7)
    start = time.perf_counter()
    for _ in range(n):
        board = Board(5, 5)
        order = list(range(60))
        rng.shuffle(order)
        for i in order:
            board.push_index(i)
        assert sum(board.scores) == 25
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--pairs", type=int, default=300_000)
    parser.add_argument("--games", type=int, default=3_000)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    results: dict[str, list[float]] = {"index": [], "edge": [], "playouts": []}
    for _ in range(args.runs):
        results["index"].append(push_pop_index_pairs(args.pairs))
        results["edge"].append(push_pop_edge_pairs(args.pairs))
        results["playouts"].append(playouts(args.games))
    med = {k: statistics.median(v) for k, v in results.items()}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"rules benchmark: median of {args.runs} runs, one core, load average {load:.2f}")
    print(f"  push_index+pop pairs/s : {med['index']:>12,.0f}  (target {TARGET_PAIRS:,})")
    print(f"  push(Edge)+pop pairs/s : {med['edge']:>12,.0f}")
    print(f"  random 5x5 playouts/s  : {med['playouts']:>12,.0f}  (60 pushes each)")
    verdict = "meets" if med["index"] >= TARGET_PAIRS else "BELOW"
    print(f"  {verdict} the push+pop target")


if __name__ == "__main__":
    main()
