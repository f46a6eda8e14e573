"""The room clock: turn timers, stand-ins for absent players, presence beats.

Choice: a small asyncio task in **every** ASGI server process (started with
the server, see ``asgi.py``), not a separate worker.  ``runserver`` stays one
command, and several processes are safe because work is claimed row by row:
the due room is locked with ``select_for_update(skip_locked=True)`` (a second
process skips it instead of waiting) and a computer move is applied only if the
game's ``version`` is still the one it was computed for, so each timed-out turn
is played exactly once.  Deadlines live in the database, so a restart simply
finds overdue rooms on its first tick.  ``manage.py rooms_ticker`` runs the same
loop as a separate process for deployments that set ``ROOMS_TICKER=worker``
(the web processes then only beat for their own sockets).
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.dispatch import Signal
from django.utils.translation import gettext_noop

from dotsboxes import clock
from dotsboxes.games.jobs import think
from dotsboxes.games.models import Game, Side
from dotsboxes.games.steps import lose_on_time
from dotsboxes.rules import Board

from . import presence, vacation
from .models import CORRESPONDENCE_FROM, Room
from .steps import (
    both_seated,
    changed,
    draw_for_side_to_move,
    game_over,
    locked,
    log_line,
)

logger = logging.getLogger(__name__)


def tick_seconds() -> float:
    return float(settings.ROOMS_TICK_SECONDS)


def computer_level() -> str:
    return str(settings.ROOMS_COMPUTER_LEVEL)


def due_rooms(now: datetime) -> list[int]:
    """Rooms with work for the clock: a turn out of time, an away countdown
    that ran out, or a stand-in whose side is to move."""
    due = (
        Q(turn_deadline__lte=now)
        | Q(blue_standin=False, blue_away_deadline__lte=now)
        | Q(red_standin=False, red_away_deadline__lte=now)
        | Q(blue_standin=True, to_move=Side.BLUE)
        | Q(red_standin=True, to_move=Side.RED)
    )
    rooms = Room.objects.filter(due, game__status=Game.Status.ACTIVE)
    return list(
        rooms.order_by(F("turn_deadline").asc(nulls_last=True)).values_list("pk", flat=True)[:200]
    )


def _start_standins(room_id: int, now: datetime) -> None:
    with transaction.atomic():
        room = (
            Room.objects.select_for_update(skip_locked=True)
            .select_related("game")
            .filter(pk=room_id)
            .first()
        )
        if room is None or room.game.status != Game.Status.ACTIVE:
            return
        stood_in = False
        for side in Side.values:
            deadline = room.away_deadline(side)
            if deadline and deadline <= now and not room.standin(side):
                room.set_presence(side, away_deadline=None, standin=True)
                name = room.game.name_of(Side(side))
                log_line(
                    room,
                    gettext_noop(
                        "%(name)s has not come back: the computer plays for them until they return."
                    ),
                    {"name": name},
                )
                stood_in = True
        if stood_in:
            changed(room, room.game, "away")


def _computer_move(room_id: int, now: datetime) -> str:
    """Play the side to move's whole turn if its time ran out or it is stood in for."""
    room = Room.objects.select_related("game").filter(pk=room_id).first()
    if room is None or room.game.status != Game.Status.ACTIVE or not both_seated(room.game):
        return ""
    game, version = room.game, room.game.version
    board, computer = game.board(), game.computer_flags()
    side = Side.of(board.turn).value
    timed_out = room.turn_deadline is not None and room.turn_deadline <= now
    if not (timed_out or room.standin(side)):
        return ""
    moves = [str(edge) for edge in board.move_stack]
    edges = computer_turn_edges(board.copy(), seed=game.pk * 1009 + len(moves))
    with transaction.atomic():
        found = locked(game.public_id, skip_locked=True)
        if found is None:
            return ""  # another process holds it: it will do the work or has done it
        room, game = found
        if game.version != version or game.status != Game.Status.ACTIVE:
            return ""  # the position moved on while we thought: nothing to do now
        if timed_out and not (room.turn_deadline and room.turn_deadline <= clock.now()):
            return ""
        game.keep_board(board, computer)  # the position thought about, at this version
        drawn, withdrawn = draw_for_side_to_move(room, game, edges, by_computer=True)
        name = game.name_of(Side(side))
        listed = ", ".join(d.edge for d in drawn)
        event = "timeout" if timed_out and not room.standin(side) else "standin"
        if event == "timeout":
            log_line(
                room,
                gettext_noop("Time ran out for %(name)s: the computer drew %(listed)s."),
                {"name": name, "listed": listed},
                ply=len(moves) + 1,
            )
        else:
            log_line(
                room,
                gettext_noop("The computer drew %(listed)s for %(name)s, who is away."),
                {"name": name, "listed": listed},
                ply=len(moves) + 1,
            )
        changed(room, game, event, drawn, withdrawn)
    # After the commit, so the line is true: which clock did it, when several run.
    logger.info("room %s: %s for %s, the computer drew %s", room_id, event, side, listed)
    return side


def _lose_on_time(room_id: int) -> str:
    """End a correspondence game whose side to move let its deadline pass.

    Exactly once across processes and restarts: the room and game rows are
    claimed with ``skip_locked`` (another clock holding them does the work), and
    the deadline and the game's status are checked again under the lock, so a
    second clock that gets the rows afterwards finds nothing due.

    A player with vacation days left (``rooms.vacation``) does not lose: under the
    same lock the deadline moves one day later, and the day is spent once per
    player and calendar day.  Returns the side that lost, "vacation" when a
    vacation day moved the deadline, or ""."""
    with transaction.atomic():
        room = Room.objects.filter(pk=room_id).values_list("game__public_id", flat=True).first()
        found = locked(room, skip_locked=True) if room else None
        if found is None:
            return ""
        room, game = found
        due = room.turn_deadline is not None and room.turn_deadline <= clock.now()
        if not (due and room.is_correspondence and game.status == Game.Status.ACTIVE):
            return ""
        side = Side.of(game.board().turn)  # as the core's lose_on_time sees it
        user_id = getattr(game, f"{side.value}_user_id")
        day = vacation.cover(user_id, room.turn_deadline) if user_id else None
        if day is not None:
            room.turn_deadline += timedelta(days=1)
            log_line(
                room,
                gettext_noop(
                    "Time ran out for %(name)s, who is on vacation: one more day to move "
                    "(vacation days left this year: %(left)s)."
                ),
                {"name": game.name_of(side), "left": vacation.days_left(user_id, day.year)},
            )
            changed(room, game, "vacation")  # the new deadline reaches the open pages
        else:
            side = lose_on_time(game)
            game_over(room)
            winner = Side.RED if side == Side.BLUE else Side.BLUE
            log_line(
                room,
                gettext_noop("Time ran out for %(name)s: %(winner)s wins on time."),
                {"name": game.name_of(side), "winner": winner.value},
            )
            changed(room, game, "timeout")
    # After the commit, so the line is true: which clock did it, when several run.
    if day is not None:
        logger.info("room %s: vacation day %s for %s", room_id, day, side.value)
        return "vacation"
    logger.info("room %s: timeout for %s, lost on time", room_id, side.value)
    return side.value


def computer_turn_edges(board: Board, *, seed: int) -> list[str]:
    """The edges that finish the side to move's whole turn, each asked for as the
    computer asks (``games.jobs.think``: the choose job, which falls back to a cheap
    level rather than stall)."""
    mover, drawn = board.turn, []
    while not board.is_over() and board.turn is mover:
        edge = think(board, level=computer_level(), seed=seed + len(drawn))
        board.play(edge)
        drawn.append(str(edge))
    return drawn


#: Sent after every working pass of the clock, with ``now``: periodic work of the
#: apps above rooms (notifications) hangs on it instead of running its own loop.
ticked = Signal()

_last_purge = [0.0]


def tick(now: datetime | None = None, *, work: bool = True) -> int:
    """One pass of the clock; returns how many rooms it looked at."""
    presence.beat(force=False)
    if time.monotonic() - _last_purge[0] > presence.BEAT_EVERY.total_seconds():
        _last_purge[0] = time.monotonic()
        presence.purge_stale_servers()
    if not work:
        return 0
    now = now or clock.now()
    ids = due_rooms(now)
    correspondence = (  # no query on the usual tick, with nothing due
        set(
            Room.objects.filter(pk__in=ids, timer_seconds__gte=CORRESPONDENCE_FROM).values_list(
                "pk", flat=True
            )
        )
        if ids
        else set()
    )
    for room_id in ids:
        try:
            if room_id in correspondence:
                _lose_on_time(room_id)  # never played by the computer
                continue
            _start_standins(room_id, now)
            _computer_move(room_id, now)
        except Exception:
            logger.exception("room clock failed for room %s", room_id)
    try:
        ticked.send(sender=tick, now=now)
    except Exception:
        logger.exception("a listener of the room clock failed")
    return len(ids)


async def run_forever(*, work: bool = True) -> None:
    """Tick until cancelled; errors are logged, never fatal."""
    step = database_sync_to_async(tick, thread_sensitive=False)
    while True:
        try:
            await step(work=work)
        except Exception:
            logger.exception("room clock tick failed")
        await asyncio.sleep(tick_seconds())


_task: asyncio.Task | None = None


def ensure_started() -> None:
    """Start this process's clock on the running event loop (once)."""
    global _task
    mode = settings.ROOMS_TICKER
    if _task is not None or mode == "off":
        return
    _task = asyncio.get_running_loop().create_task(run_forever(work=mode == "embedded"))


def under_daphne() -> bool:
    """True in a Daphne server process (Twisted's reactor is installed)."""
    reactor = sys.modules.get("twisted.internet.reactor")
    return reactor is not None and hasattr(reactor, "callWhenRunning")


def start_with_server() -> None:
    """Under Daphne (Twisted's asyncio reactor) start the clock as soon as the server runs,
    whether or not anyone connects.  Other servers start it on their first event."""
    if under_daphne():
        sys.modules["twisted.internet.reactor"].callWhenRunning(ensure_started)
