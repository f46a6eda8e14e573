"""Refusals a room action can meet: each carries a plain message and an HTTP status."""

from __future__ import annotations


class RoomError(ValueError):
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


class StaleVersion(Conflict):
    """The client acted on an old version of the game: it must re-fetch."""


class TooFast(RoomError):
    status = 429
