"""Fixtures for the puzzle trainer's tests: a puzzle built from a constructed position."""

from __future__ import annotations

import pytest

from dotsboxes.engine import puzzles as engine
from dotsboxes.engine.solver import Table
from dotsboxes.puzzles import build
from dotsboxes.puzzles.models import Puzzle
from dotsboxes.rules import Board, Edge

#: Two 4-chains on a 4 x 2 board; Blue opened the bottom one and Red took two boxes.
#: Red's only good move is e1-e2, declining the last two (every other loses 2+).
DECLINE = [
    "a1-b1", "b1-c1", "c1-d1", "d1-e1", "a2-b2", "b2-c2", "c2-d2", "d2-e2",
    "a3-b3", "b3-c3", "c3-d3", "d3-e3", "a1-a2", "b1-b2", "c1-c2",
]  # fmt: skip


#: A lone opened 4-chain on a 4 x 1 board: take all four.
TAKE_ALL = ["a1-b1", "b1-c1", "c1-d1", "d1-e1", "a2-b2", "b2-c2", "c2-d2", "d2-e2", "a1-a2"]


def make_puzzle(
    moves: list[str], *, width: int = 4, height: int = 2, rating: float = 1500.0
) -> Puzzle:
    board = Board(width, height)
    edges = [Edge.parse(m) for m in moves]
    for edge in edges:
        board.push(edge)
    found = engine.find(board)
    assert found is not None
    rec = build.record(found, edges, len(edges), Table())
    rec.update(source="selfplay", seed=None, ply=len(edges), rating=rating)
    build.load([rec], Puzzle)
    return Puzzle.objects.get(position_key=rec["position_key"])


@pytest.fixture
def decline_puzzle(db) -> Puzzle:
    """The all-but-two puzzle, the only visible one (the shipped set is hidden)."""
    Puzzle.objects.update(hidden=True)
    return make_puzzle(DECLINE)
