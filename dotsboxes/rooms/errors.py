"""Refusals a room action can meet: each carries a plain message and an HTTP status.

They extend the game core's refusals (:class:`~dotsboxes.games.services.GameError`),
so a room view answers the core's (a stale version, an illegal edge, out of turn)
and the room's own (a spectator, a pending offer, chat too fast) the same way.
"""

from __future__ import annotations

from dotsboxes.games.services import GameError, StaleVersionError

__all__ = ["Conflict", "Forbidden", "NotFound", "RoomError", "StaleVersion", "TooFast"]

#: The core's refusal of a stale version (409): the client must re-fetch.
StaleVersion = StaleVersionError


class RoomError(GameError):
    """An action that cannot be done; nothing was changed."""

    status = 400


class NotFound(RoomError):
    status = 404


class Forbidden(RoomError):
    """The viewer may not do this here (a spectator, or not the right player)."""

    status = 403


class Conflict(RoomError):
    """Not now: out of turn, game over, an offer already pending."""

    status = 409


class TooFast(RoomError):
    status = 429
