"""Computer players by level.  (Initial version: the engine issue grows this list.)"""

from __future__ import annotations

import random

from dotsboxes.rules import Board, Edge

LEVELS = ("beginner", "casual")
DEFAULT_LEVEL = "casual"


def _safe(board: Board, edge: Edge) -> bool:
    # A safe edge gives no box a third side.
    return all(board.sides(box) < 2 for box in board.edge_boxes(edge))


def choose(board: Board, *, level: str = DEFAULT_LEVEL, budget: float = 1.0, seed: int = 0) -> Edge:
    """The edge the computer draws next for the side to move.

    Same board, level, budget and seed: same edge.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    moves = board.legal_moves
    if not moves:
        raise ValueError("the game is over: no edge is left to draw")
    rng = random.Random(f"{seed}:{board.key()}")
    takes = [e for e in moves if board.claims(e)]
    if takes:
        return rng.choice(takes)
    if level == "casual":
        safe = [e for e in moves if _safe(board, e)]
        if safe:
            return rng.choice(safe)
    return rng.choice(moves)
