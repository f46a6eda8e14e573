"""Hints for the player to move: the engine's recommended edge and a one-line reason.

The engine (:func:`dotsboxes.engine.players.hint`) works in its process pool
with a small budget while the request waits on the result; should the pool
fail or overrun, the engine answers in-thread with a tiny budget instead.
"""

from __future__ import annotations

import logging

from dotsboxes.engine import players, pool
from dotsboxes.engine.players import Hint
from dotsboxes.rules import Board

log = logging.getLogger(__name__)

HINT_BUDGET = 0.5  # seconds of engine thought for a hint
GRACE = 3.0  # seconds the pool may overrun before the in-thread answer
FALLBACK_BUDGET = 0.05

__all__ = ["Hint", "recommend"]


def recommend(board: Board) -> Hint:
    """The hint for the side to move on ``board`` (which must have an edge left)."""
    budget = min(HINT_BUDGET, players.default_budget("master", board) / 2)
    try:
        return pool.submit(players.hint, board, budget=budget).result(timeout=budget + GRACE)
    except Exception:
        log.warning("hint engine failed or overran at %s; answering in-thread", board.key())
        return players.hint(board, budget=FALLBACK_BUDGET)
