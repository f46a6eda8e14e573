"""A room's game: opening a room, taking the free seat, drawing an edge, resigning
and aborting.  Offers are :mod:`dotsboxes.rooms.offers`, chat
:mod:`dotsboxes.rooms.chat`; all three compose the room's shared steps
(:mod:`dotsboxes.rooms.steps`) over the game core's.

Only chat and presence, which do not change the game, push by themselves; every
other command ends in the core's commit, whose change event the room's pushes
listen to.
"""

from __future__ import annotations

import random

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from dotsboxes.games.models import Game, Side
from dotsboxes.games.seats import Actor, check_turn
from dotsboxes.games.services import game_create
from dotsboxes.games.steps import resign
from dotsboxes.games.turns import both_have_played
from dotsboxes.moderation import services as moderation

from . import push
from .errors import Conflict, Forbidden, RoomError
from .identity import Viewer, seat_of
from .models import CORRESPONDENCE_FROM, Room
from .steps import (
    RoomChange,
    changed,
    draw_for_side_to_move,
    finish,
    game_over,
    lock,
    log_line,
    other,
    playing,
    restart_clock,
)


def room_create(
    *,
    viewer: Viewer,
    width: int = 5,
    height: int = 5,
    host_side: str = "random",
    timer_seconds: int = 0,
    is_public: bool = True,
    rated: bool = False,
) -> Room:
    """Open a room with the host seated; the other seat waits for the first visitor."""
    if host_side == "random":
        host_side = random.choice(Side.values)
    if host_side not in Side.values:
        raise RoomError(_("Choose Blue, Red or random for your side."))
    if timer_seconds not in Room.Timer.values:
        raise RoomError(_("Choose no timer, 30 or 60 seconds, or 1, 2, 3, 5 or 7 days a move."))
    correspondence = timer_seconds >= CORRESPONDENCE_FROM
    if correspondence and not viewer.signed_in:
        # A game that lasts weeks needs an account: the "your turn" list and notices.
        raise Forbidden(_("Sign in to play correspondence games."))
    if rated and not viewer.signed_in:
        raise Forbidden(_("Sign in to play rated games."))
    if rated and (refusal := moderation.rated_refusal(viewer.user_id)):
        raise Forbidden(refusal)
    if not viewer.signed_in and not viewer.token:
        raise RoomError(_("Choose a display name first."))
    host = _actor(viewer)
    with transaction.atomic():
        game = game_create(
            actor=host,
            mode=Game.Mode.ONLINE,
            width=width,
            height=height,
            rated=rated,
            **{host_side: host, f"{host_side}_name": viewer.name or Side(host_side).label},
        )
        room = Room.objects.create(
            game=game, host_side=host_side, is_public=is_public, timer_seconds=timer_seconds
        )
        log_line(
            room,
            gettext_noop("%(name)s opened the room and sits as %(side)s."),
            {"name": viewer.name, "side": host_side},
        )
        push.lobby_after_commit()  # nobody is in the new room yet; the lobby lists it
    return room


def _actor(viewer: Viewer) -> Actor:
    """The seat a viewer takes: their account when signed in, else their browser."""
    if viewer.signed_in:
        return Actor(user_id=viewer.user_id)
    return Actor(token=viewer.token)


def _seat(game: Game, side: str, viewer: Viewer) -> None:
    seat = _actor(viewer)
    setattr(game, f"{side}_name", viewer.name or Side(side).label)
    setattr(game, f"{side}_user_id", seat.user_id)
    setattr(game, f"{side}_token", seat.token)


def room_join(*, public_id: str, viewer: Viewer, arranged: bool = False) -> tuple[Room, str]:
    """Take the free seat; return the room and the viewer's side ("" if they only watch).

    ``arranged``: the site seats them (a tournament's pairing), so a block between the
    two players does not keep them apart (their chat is still hidden)."""
    with transaction.atomic():
        room, game = lock(public_id)
        side = seat_of(game, viewer)
        if side:
            return room, side
        if game.status != Game.Status.ACTIVE:
            raise Conflict(_("This game is over: you can watch it, but not sit down."))
        free = [
            s
            for s in Side.values
            if not (getattr(game, f"{s}_user_id") or getattr(game, f"{s}_token"))
        ]
        if not free:
            raise Conflict(_("Both seats are taken: you are watching this game."))
        if game.rated and not viewer.signed_in:
            raise Forbidden(_("This game is rated: sign in to take the seat."))
        if room.is_correspondence and not viewer.signed_in:
            raise Forbidden(_("This is a correspondence game: sign in to take the seat."))
        if not viewer.signed_in and not viewer.token:
            raise RoomError(_("Choose a display name first."))
        seated = [getattr(game, f"{s}_user_id") for s in Side.values]
        if not arranged and (refusal := moderation.refusal_between(viewer.user_id, seated)):
            raise Forbidden(refusal)
        if game.rated and (refusal := moderation.rated_refusal(viewer.user_id)):
            raise Forbidden(refusal)
        side = free[0]
        _seat(game, side, viewer)
        log_line(
            room,
            gettext_noop("%(name)s sits down as %(side)s. The game is on!"),
            {"name": viewer.name or Side(side).label, "side": side},
        )
        restart_clock(room, game)
        changed(room, game, "seated")
    return room, side


def room_play_move(*, public_id: str, viewer: Viewer, edge: str, version: int | None) -> RoomChange:
    """A seated player draws one edge on their turn.

    The hot path of a live room: one locked read of room and game, one read of
    the moves; the push is rendered from these rows after commit."""
    with transaction.atomic():
        alone = _("Wait for an opponent to take the free seat.")
        refusal = _("Only the two players can draw edges; you are watching this game.")
        room, game, side = playing(public_id, viewer, refusal, version, alone=alone)
        check_turn(game, Side.of(game.board().turn), [Side(side)])
        drawn, withdrawn = draw_for_side_to_move(room, game, [str(edge)[:16]], by_computer=False)
        return changed(room, game, "move", drawn, withdrawn)


# -- ending a game ----------------------------------------------------------------------


def room_resign(*, public_id: str, viewer: Viewer, version: int | None) -> RoomChange:
    """The player gives up: the opponent wins."""
    with transaction.atomic():
        alone = _("Nobody has taken the other seat yet: abort the game instead.")
        refusal = _("Only the two players can resign; you are watching this game.")
        room, game, side = playing(public_id, viewer, refusal, version, alone=alone)
        resign(game, Side(side))
        game_over(room)
        log_line(
            room,
            gettext_noop("%(name)s resigned. %(winner)s wins."),
            {"name": game.name_of(Side(side)), "winner": other(side)},
        )
        return changed(room, game, "resign")


def room_abort(*, public_id: str, viewer: Viewer, version: int | None) -> RoomChange:
    """Call the game off while at least one player has not finished a turn."""
    with transaction.atomic():
        refusal = _("Only the two players can abort the game; you are watching this game.")
        room, game, side = playing(public_id, viewer, refusal, version)
        if both_have_played(game.board()):
            raise Conflict(_("Both players have moved: you can resign or offer a draw instead."))
        finish(room, game, Game.Result.NONE, Game.Termination.ABORTED)
        log_line(
            room, gettext_noop("%(name)s aborted the game."), {"name": game.name_of(Side(side))}
        )
        return changed(room, game, "abort")
