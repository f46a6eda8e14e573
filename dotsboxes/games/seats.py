"""Who may act for a side: the seat policy of the play page and of rooms alike.

An :class:`Actor` is who is asking (a browser's seat token and, when signed
in, an account); :func:`check_seated` and :func:`check_turn` refuse an actor
with no seat, or whose side is not to move.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.utils.translation import gettext as _

from dotsboxes.rules import Player

from .errors import NotYourGameError, NotYourTurnError
from .models import Game, Side
from .wording import player_name


@dataclass(frozen=True)
class Actor:
    """Who is asking: a browser (its seat token) and, if signed in, a user.

    The seat policy of the play page and of rooms alike: a seat belongs to its
    user when one is set, else to the browser holding its token."""

    token: str = ""
    user_id: int | None = None

    def holds(self, game: Game, side: Side | Player) -> bool:
        """True if this actor sits in ``side``'s seat of ``game``."""
        blue = side in (Side.BLUE, Player.BLUE)
        token = game.blue_token if blue else game.red_token
        user_id = game.blue_user_id if blue else game.red_user_id
        if user_id is not None and self.user_id == user_id:
            return True
        return bool(token and self.token) and secrets.compare_digest(token, self.token)

    def seats(self, game: Game) -> list[Side]:
        """The sides of ``game`` this actor may play (both on one device)."""
        return [side for side in (Side.BLUE, Side.RED) if self.holds(game, side)]


def check_seated(game: Game, actor: Actor) -> list[Side]:
    """The sides ``actor`` holds in ``game``; a spectator is refused."""
    seats = actor.seats(game)
    if not seats:
        raise NotYourGameError(
            _("This game belongs to another browser: you can watch it, but not play in it.")
        )
    return seats


def check_turn(game: Game, side: Side, seats: list[Side]) -> None:
    """The seat policy of a move: the side to move must be one of ``seats``, and
    a side the computer plays is the computer's."""
    if game.is_computer(side):
        raise NotYourTurnError(_("It is the computer's turn: wait for its move."))
    if side not in seats:
        raise NotYourTurnError(
            _("It is %(side)s's turn, not yours.") % {"side": player_name(side.player)}
        )
