"""Offers in a room: a draw, a take-back, a rematch; the opponent accepts or declines,
and the host decides whether a rematch swaps who moves first."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from dotsboxes.games.models import Game, Side
from dotsboxes.games.services import start_rematch
from dotsboxes.games.steps import check_active, check_version, take_back_to
from dotsboxes.games.turns import takeback_start
from dotsboxes.moderation.services import is_marked

from . import push
from .errors import Conflict, Forbidden, RoomError
from .identity import Viewer
from .models import Room
from .presenters import OFFER_NAMES
from .steps import (
    RoomChange,
    both_seated,
    changed,
    finish,
    lock,
    log_line,
    other,
    restart_clock,
    seated,
)

OFFER_KINDS = ("draw", "takeback", "rematch")


def room_offer(*, public_id: str, viewer: Viewer, kind: str, version: int | None) -> RoomChange:
    """Offer a draw, ask for a take-back or propose a rematch; the opponent answers."""
    if kind not in OFFER_KINDS:
        raise RoomError(_("Unknown offer."))
    with transaction.atomic():
        room, game = lock(public_id)
        side = seated(
            game, viewer, _("Only the two players can make offers; you are watching this game.")
        )
        check_version(game, version)
        if not both_seated(game):
            raise Conflict(_("Nobody has taken the other seat yet."))
        pending = getattr(room, f"{kind}_offer")
        if pending == side:
            raise Conflict(
                _("You already offered %(offer)s: wait for the answer.")
                % {"offer": OFFER_NAMES[kind]}
            )
        if pending:
            raise Conflict(
                _("Your opponent already offers %(offer)s: answer it instead.")
                % {"offer": OFFER_NAMES[kind]}
            )
        board = game.board()
        if kind == "rematch":
            if game.status == Game.Status.ACTIVE:
                raise Conflict(_("Finish this game before proposing a rematch."))
            if game.rematches.exists():
                raise Conflict(_("The rematch has already started."))
            _check_rated_rematch(game)
        else:
            check_active(game)
            if room.declined.get(f"{kind}:{side}") == len(board.move_stack):
                raise Conflict(
                    _("Your opponent declined %(offer)s: you can ask again after the next move.")
                    % {"offer": OFFER_NAMES[kind]}
                )
            if kind == "takeback" and takeback_start(board, Side(side).player) is None:
                raise Conflict(_("You have not drawn anything to take back yet."))
        setattr(room, f"{kind}_offer", side)
        log_line(
            room,
            gettext_noop("%(name)s offers %(offer)s."),
            {"name": game.name_of(Side(side)), "offer": kind},
        )
        return changed(room, game, "offer")


def room_answer(
    *, public_id: str, viewer: Viewer, kind: str, accept: bool, version: int | None
) -> RoomChange:
    """Accept or decline the opponent's pending offer (an accepted rematch's new room
    is the change's ``rematch``)."""
    if kind not in OFFER_KINDS:
        raise RoomError(_("Unknown offer."))
    with transaction.atomic():
        room, game = lock(public_id)
        side = seated(
            game, viewer, _("Only the two players can answer offers; you are watching this game.")
        )
        check_version(game, version)
        offerer = getattr(room, f"{kind}_offer")
        if not offerer:
            raise Conflict(
                _("There is no offer of %(offer)s to answer.") % {"offer": OFFER_NAMES[kind]}
            )
        if offerer == side:
            raise Conflict(_("You cannot answer your own offer."))
        setattr(room, f"{kind}_offer", "")
        name = game.name_of(Side(side))
        board = game.board()
        if not accept:
            if kind != "rematch":
                room.declined = {**room.declined, f"{kind}:{offerer}": len(board.move_stack)}
            log_line(
                room, gettext_noop("%(name)s declined %(offer)s."), {"name": name, "offer": kind}
            )
            return changed(room, game, "offer")
        if kind == "draw":
            check_active(game)
            finish(room, game, Game.Result.DRAW, Game.Termination.AGREED)
            log_line(
                room,
                gettext_noop("%(name)s accepted the draw: the game is drawn by agreement."),
                {"name": name},
            )
            return changed(room, game, "draw")
        if kind == "takeback":
            check_active(game)
            _take_back(room, game, offerer)
            return changed(room, game, "takeback")
        _check_rated_rematch(game)
        new_room = _rematch(room, game)
        log_line(room, gettext_noop("%(name)s accepted the rematch."), {"name": name})
        result = changed(room, game, "rematch")
        result.rematch = new_room
        return result


def _take_back(room: Room, game: Game, requester: str) -> None:
    start = takeback_start(game.board(), Side(requester).player)
    if start is None:
        raise Conflict(_("There is nothing to take back."))
    removed = take_back_to(game, start)
    room.to_move = Side.of(game.board().turn).value
    restart_clock(room, game)
    log_line(
        room,
        gettext_noop("Take-back accepted: %(edges)s undone, %(to_move)s to move."),
        {"edges": removed, "to_move": room.to_move},
    )


def _check_rated_rematch(game: Game) -> None:
    """A rematch of a rated game is rated: not with an account marked for a fair-play
    violation (it may play unrated games only)."""
    if game.rated and any(is_marked(getattr(game, f"{s}_user_id")) for s in Side.values):
        raise Forbidden(
            _("A rated rematch is not possible: one of you may play unrated games only.")
        )


def _rematch(room: Room, game: Game) -> Room:
    swap = room.swap_on_rematch
    new = start_rematch(game, swap=swap)
    push.lobby_after_commit()  # the lobby lists the new game
    host_side = other(room.host_side) if swap else room.host_side
    new_room = Room(
        game=new,
        host_side=host_side,
        is_public=room.is_public,
        timer_seconds=room.timer_seconds,
        swap_on_rematch=room.swap_on_rematch,
    )
    restart_clock(new_room, new)
    new_room.save()
    if swap:
        text = gettext_noop("Rematch (sides swapped): %(name)s plays Blue and moves first.")
    else:
        text = gettext_noop("Rematch (same sides): %(name)s plays Blue and moves first.")
    log_line(new_room, text, {"name": new.blue_name})
    return new_room


def room_set_swap(*, public_id: str, viewer: Viewer, swap: bool) -> RoomChange:
    """The host decides whether a rematch swaps who moves first."""
    with transaction.atomic():
        room, game = lock(public_id)
        side = seated(
            game,
            viewer,
            _("Only the two players can change the rematch setting; you are watching."),
        )
        if side != room.host_side:
            raise Forbidden(_("Only the host decides who moves first in a rematch."))
        if room.swap_on_rematch != swap:
            room.swap_on_rematch = swap
            return changed(room, game, "offer")
    return RoomChange(room, None)
