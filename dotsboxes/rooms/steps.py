"""The steps every room command shares, and the room's clock and presence with it:
lock the room and its game, check who is asking, keep the room in step with the
game (whose turn, offers, the clock), write the log, and hand the game to the
core's :func:`~dotsboxes.games.steps.commit`.

Each room command runs in ``transaction.atomic`` with the room and game rows locked
in one statement (``select_for_update``; SQLite serialises writers with
IMMEDIATE transactions instead), checks who is asking, and then uses the core's
own steps for the game (:mod:`dotsboxes.games.steps`): the version check, drawing
edges, taking back, ending, and the commit, whose one change event the room's
pushes listen to (:mod:`dotsboxes.rooms.push`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from dotsboxes import clock
from dotsboxes.games.events import Drawn, GameChanged
from dotsboxes.games.models import Game, Side
from dotsboxes.games.steps import check_active, check_version, commit, draw_edges, end_game

from . import push
from .errors import Conflict, Forbidden, NotFound
from .identity import Viewer, seat_of
from .models import CHAT_MAX_LENGTH, Message, Room

logger = logging.getLogger(__name__)


def other(side: str) -> str:
    return Side.RED.value if side == Side.BLUE else Side.BLUE.value


def away_grace() -> timedelta:
    """How long a seat may stay empty before the computer plays for it."""
    return timedelta(seconds=float(settings.ROOMS_AWAY_SECONDS))


def locked(public_id: str, *, skip_locked: bool = False) -> tuple[Room, Game] | None:
    """The room and its game, both rows locked (one statement, so one lock order)."""
    rooms = Room.objects.select_for_update(skip_locked=skip_locked).select_related("game")
    room = rooms.filter(game__public_id=public_id).first()
    if room is None:
        if skip_locked:
            return None
        raise NotFound(_("There is no room at this address."))
    return room, room.game


def lock(public_id: str) -> tuple[Room, Game]:
    found = locked(public_id)
    assert found is not None
    return found


def seated(game: Game, viewer: Viewer, refusal: str) -> str:
    """The viewer's side; ``refusal`` (a whole sentence) for a spectator."""
    side = seat_of(game, viewer)
    if not side:
        raise Forbidden(refusal)
    return side


def playing(
    public_id: str, viewer: Viewer, refusal: str, version: int | None, *, alone: str = ""
) -> tuple[Room, Game, str]:
    """Lock room and game for an action in play: the viewer must be seated, the game
    on (and both seats taken, if ``alone`` says why not), the version current."""
    room, game = lock(public_id)
    side = seated(game, viewer, refusal)
    check_active(game)
    if alone and not both_seated(game):
        raise Conflict(alone)
    check_version(game, version)
    return room, game, side


def both_seated(game: Game) -> bool:
    return all(
        getattr(game, f"{side}_user_id") or getattr(game, f"{side}_token") for side in Side.values
    )


def log_line(room: Room, text: str, params: dict | None = None, *, ply: int | None = None) -> None:
    """A system line: ``text`` is its English sentence (marked with ``gettext_noop``)
    with named placeholders for ``params``; each reader reads it in their language
    (``rooms.presenters.line_text``: sides and offers go in as keys, names as typed)."""
    Message.objects.create(
        room=room,
        kind=Message.Kind.SYSTEM,
        text=text[:CHAT_MAX_LENGTH],
        params=params or {},
        ply=ply,
    )


def restart_clock(room: Room, game: Game) -> None:
    if room.timer_seconds and game.status == Game.Status.ACTIVE and both_seated(game):
        room.turn_deadline = clock.now() + timedelta(seconds=room.timer_seconds)
    else:
        room.turn_deadline = None


@dataclass
class RoomChange:
    """What a room command changed, as it returns it.

    ``room`` is the room as committed (its game on it, the game's board cached),
    ``change`` the game core's change event (``None`` when the command changed
    nothing), ``withdrawn`` the offers the change withdrew (their buttons come back
    on the page), ``rematch`` the new room when an accepted rematch began.  After
    the commit the change is pushed to the room once in each language its readers
    and the acting request read; ``pushes`` keeps those renders, so the request
    answers with the very fragments it pushed.
    """

    room: Room
    change: GameChanged | None
    withdrawn: tuple[str, ...] = ()
    rematch: Room | None = None
    pushes: dict[str, str] = field(default_factory=dict)


def changed(
    room: Room,
    game: Game,
    event: str,
    drawn: tuple[Drawn, ...] = (),
    withdrawn: tuple[str, ...] = (),
) -> RoomChange:
    """Save the room and hand the game to the core's commit (the version is bumped,
    the core's change event goes out after commit); the room's push is sent after
    commit too, from the returned :class:`RoomChange`."""
    room.save()
    result = RoomChange(room, commit(game, event, drawn), withdrawn)
    transaction.on_commit(lambda: _publish(result))
    return result


def _publish(result: RoomChange) -> None:
    # The change is committed: a broken push must not turn it into an error page
    # (clients repair a missed push by their version check; the request renders
    # its answer itself when ``pushes`` lacks it).
    try:
        result.pushes.update(push.publish(result.room, result.change, result.withdrawn))
    except Exception:
        logger.exception("room push failed for game %s", result.room.game.public_id)


def finish(room: Room, game: Game, result: str, termination: str) -> None:
    end_game(game, result=result, termination=termination)
    game_over(room)


def game_over(room: Room) -> None:
    room.turn_deadline = None
    room.draw_offer = room.takeback_offer = ""


def draw_for_side_to_move(
    room: Room, game: Game, edges: list[str], *, by_computer: bool
) -> tuple[tuple[Drawn, ...], tuple[str, ...]]:
    """Draw ``edges`` through the core (rows locked by the caller), then keep the
    room in step: whose turn, stale offers, the clock.  Nothing changes if an edge
    is not legal.  Returns the edges drawn and the offers the edge withdrew."""
    drawn = draw_edges(game, edges, by_computer=by_computer)
    board = game.board()
    room.to_move = Side.of(board.turn).value
    # The push of this edge withdraws these offers on the page (and nothing else of the actions).
    withdrawn = tuple(k for k in ("draw", "takeback") if getattr(room, f"{k}_offer"))
    room.draw_offer = room.takeback_offer = ""
    if game.status != Game.Status.ACTIVE:
        game_over(room)
    restart_clock(room, game)  # no deadline once the game is over
    return drawn, withdrawn
    return drawn
