"""Errors raised by the rules core.

Every error is a :class:`ValueError` so callers that only care about "bad input"
can catch one thing, while the subclasses let views and the engine protocol
say precisely what was wrong.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class for every error the rules core raises."""


class InvalidSizeError(RulesError):
    """A board size outside 1..9 boxes in either direction."""


class InvalidEdgeError(RulesError):
    """Text that does not name an edge between two neighbouring dots (of this board)."""


class IllegalMoveError(RulesError):
    """A well-formed edge that cannot be drawn in the current position."""


class InvalidRecordError(RulesError):
    """A game record that cannot be read or replayed.

    ``turn`` is the 1-based turn number and ``edge`` the offending edge text,
    where the problem lies inside the move list.  ``code`` names the kind of
    problem and ``params`` its values, so a caller can say it in another
    language (the message itself is English).
    """

    def __init__(
        self,
        message: str,
        *,
        turn: int | None = None,
        edge: str | None = None,
        code: str = "",
        params: dict | None = None,
    ) -> None:
        super().__init__(message)
        self.turn = turn
        self.edge = edge
        self.code = code
        self.params = params or {}
