"""Refusals a room action can meet: each carries a plain message and an HTTP status.

They are the game core's refusals (:class:`~dotsboxes.games.errors.GameError`
and its kinds), so a room view answers the core's (a stale version, an illegal
edge, out of turn) and the room's own (a spectator, a pending offer) the same way.
Only a flood of chat is a room's own kind.
"""

from __future__ import annotations

from dotsboxes.games.errors import (
    ConflictError,
    GameError,
    GameNotFoundError,
    NotYourGameError,
    StaleVersionError,
)

__all__ = ["Conflict", "Forbidden", "NotFound", "RoomError", "StaleVersion", "TooFast"]

RoomError = GameError  # 400: bad input
NotFound = GameNotFoundError  # 404
Forbidden = NotYourGameError  # 403: a spectator, or not the right player
Conflict = ConflictError  # 409: not now
StaleVersion = StaleVersionError  # 409: the client must re-fetch


class TooFast(GameError):
    """Over a rate limit: answered 429 with ``Retry-After: wait``."""

    status = 429

    def __init__(self, message: str, wait: int = 1) -> None:
        super().__init__(message)
        self.wait = wait
