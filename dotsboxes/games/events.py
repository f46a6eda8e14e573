"""The one change event: every command on a game announces what it did, after commit.

:func:`dotsboxes.games.steps.commit` is the only sender.  Whoever reacts to a
game (the computer, the rooms' pushes, and later analysis and tournaments)
listens here instead of being called by the command, so a new mode or a new
listener never touches the other::

    from dotsboxes.games.events import GameChanged, game_changed

    @receiver(game_changed)
    def on_change(sender, *, change: GameChanged, **kwargs): ...

The event is sent once the transaction commits (``transaction.on_commit``): a
listener never hears of a change that could still roll back, and reads the
game as committed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import django.dispatch

from .models import Game, Side

logger = logging.getLogger(__name__)

#: Sent after commit with one keyword argument, ``change`` (a :class:`GameChanged`).
game_changed = django.dispatch.Signal()


@dataclass(frozen=True)
class Drawn:
    """One edge a change drew, who drew it and the boxes it claimed (0-based indices)."""

    edge: str
    side: Side
    claimed: tuple[int, ...]
    by_computer: bool = False


@dataclass(frozen=True)
class GameChanged:
    """What one committed change did to a game.

    ``game`` is the instance the command changed (its board is cached on it, so a
    listener that renders the position replays nothing).  ``event`` names the
    command: ``created``, ``move``, ``undo``, ``takeback``, ``resign``, ``abort``,
    ``draw``, ``hint``, ``seated``, ``offer`` (a room's offer or setting).
    """

    game: Game
    version: int
    event: str
    drawn: tuple[Drawn, ...]
    scores: tuple[int, int]
    to_move: Side
    status: str
    result: str
    termination: str

    @property
    def game_id(self) -> int:
        return self.game.pk

    @property
    def public_id(self) -> str:
        return self.game.public_id

    @property
    def active(self) -> bool:
        return self.status == Game.Status.ACTIVE

    @property
    def computer_to_move(self) -> bool:
        """The game's own computer side is to move in a game still in progress."""
        return self.active and self.game.is_computer(self.to_move)


def announce(change: GameChanged) -> None:
    """Tell every listener; one that fails is logged and does not stop the others.

    The change is committed by now: a broken push or a computer that cannot start
    must not turn the player's accepted move into an error page (clients repair a
    missed push by their version check, the play page restarts the computer)."""
    for receiver, result in game_changed.send_robust(sender=Game, change=change):
        if isinstance(result, Exception):
            logger.error(
                "%s failed on game %s version %s",
                getattr(receiver, "__qualname__", receiver),
                change.public_id,
                change.version,
                exc_info=result,
            )
