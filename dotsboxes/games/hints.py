"""Hints for the player to move: the recommended edge and a one-line reason.

The engine works in its process pool with a small budget; the request waits
for it (the pool does the work, not the request thread).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from dotsboxes.engine import players, pool
from dotsboxes.rules import Board, Edge

log = logging.getLogger(__name__)

HINT_BUDGET = 0.5  # seconds of engine thought for a hint
GRACE = 3.0


@dataclass(frozen=True)
class Hint:
    edge: Edge
    reason: str


def _gift(board: Board, edge: Edge) -> int:
    """How many boxes the opponent can take in a row after ``edge`` is drawn."""
    trial = board.copy(stack=False)
    trial.push(edge)
    taken = 0
    while not trial.is_over():
        takes = [e for e in trial.legal_moves if trial.claims(e)]
        if not takes:
            break
        taken += len(trial.push(takes[0]))
    return taken


def _rule_hint(board: Board) -> Hint:
    # Stand-in until the engine's players.hint lands: take, else stay safe,
    # else give away as little as possible.
    moves = board.legal_moves
    for edge in moves:
        n = board.claims(edge)
        if n:
            return Hint(edge, "take the box" if n == 1 else "take both boxes")
    for edge in moves:
        if all(board.sides(b) < 2 for b in board.edge_boxes(edge)):
            return Hint(edge, "safe: creates no third side")
    edge = min(moves, key=lambda e: _gift(board, e))
    return Hint(edge, "open the shortest chain")


def recommend(board: Board) -> Hint:
    """The hint for the side to move on ``board`` (which must have an edge left)."""
    engine_hint = getattr(players, "hint", None)
    if engine_hint is None:
        return _rule_hint(board)
    try:
        result = pool.submit(engine_hint, board, budget=HINT_BUDGET).result(
            timeout=HINT_BUDGET + GRACE
        )
        return Hint(result.edge, result.reason)
    except Exception:
        log.warning("hint engine failed at %s", board.key())
        return _rule_hint(board)
