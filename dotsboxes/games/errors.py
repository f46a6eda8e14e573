"""Why a game refused an action: one exception class a reason.

Each message is plain English (translated when raised), safe to show to the
player; ``status`` is the HTTP status to answer with.  A refused action leaves
the stored game unchanged.
"""

from __future__ import annotations


class GameError(ValueError):
    """An action on a game was refused; ``str(error)`` is a message for the player
    and ``status`` the HTTP status that says why (bad input by default)."""

    status = 400


class GameNotFoundError(GameError):
    status = 404


class NotYourGameError(GameError):
    """The actor may not do this here: a spectator, or not the right player."""

    status = 403


class ConflictError(GameError):
    """Not now: out of turn, a stale version, the game over, an offer pending."""

    status = 409


class StaleVersionError(ConflictError):
    pass


class NotYourTurnError(ConflictError):
    pass


class GameOverError(ConflictError):
    pass


class NothingToUndoError(ConflictError):
    pass


class IllegalEdgeError(GameError):
    pass


class InvalidSetupError(GameError):
    pass


class BadRecordError(GameError):
    """A record that cannot be imported; ``turn`` and ``edge`` say where."""

    def __init__(self, message: str, *, turn: int | None = None, edge: str | None = None):
        super().__init__(message)
        self.turn = turn
        self.edge = edge
