"""Pushes: render a change once, send it to everyone in the room after commit.

A room command's change reaches this module as what the command returns
(:class:`~dotsboxes.rooms.steps.RoomChange`: the room, the game core's change
event, the offers it withdrew): :func:`publish` renders it once per language and
sends it after commit, and the request that made the change answers with the
same fragments.  Chat and presence, which leave the game as it was, push by
themselves with :func:`room_after_commit`.

Each page reads the room in its own language, so a push is rendered once per language
the site speaks and sent to that language's group (:func:`language_group`); a socket
joins the room's group (for what has no words: a rematch's redirect) and its
language's.

The channel layer may drop a message (a full channel, a Redis hiccup); that is
fine because every push carries the game's version and a client that sees a
gap re-fetches the room over HTTP.  Pushes are therefore always scheduled with
``transaction.on_commit``: a client must never hear of a change that could
still roll back.
"""

from __future__ import annotations

import logging
import re
from functools import partial

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from dotsboxes.games.events import GameChanged
from dotsboxes.games.turns import both_have_played
from dotsboxes.rules import Board, Edge

from .board import move_oob
from .models import Room
from .presenters import LogTurn, lobby_rooms, open_sockets, room_view

logger = logging.getLogger(__name__)
_SPACE = re.compile(r"\s*\n\s*")
LOBBY_GROUP = "lobby"

# What each kind of push carries: offers, results and the clock's turns change
# nearly everything, presence and chat only their own corners.  An edge that ends
# the game ("move", sent to the page as a "game" push) leaves the spectators and
# the chat as they were, so it skips them; an edge in a game that goes on is
# pushed leaner still, by :func:`render_move`.
FRAGMENTS = {
    "game": ("board", "players", "status", "actions", "log", "spectators", "chat"),
    "move": ("board", "players", "status", "actions", "log"),
    "presence": ("players", "status", "spectators", "chat"),
    "chat": ("chat",),
}


def render_room(
    room: Room, kind: str = "game", *, messages: bool = True, sockets: list | None = None
) -> str:
    """The out-of-band fragments for one change, starting with the version marker
    (``messages``: with the chat; a game's last edge leaves it as it was)."""
    view = room_view(room, messages=messages, sockets=sockets)
    marker = "game" if kind == "move" else kind  # the page versions an edge like any change
    return render_to_string(
        "rooms/push.html", {"v": view, "kind": marker, "parts": FRAGMENTS[kind], "oob": True}
    )


def render_move(
    room: Room, change: GameChanged, withdrawn: tuple[str, ...] = (), sockets: list | None = None
) -> str:
    """The lean push of an edge in a game that goes on: only what the edge changed.

    Its edges, boxes and targets, the last turn's halo, the scores that changed,
    the clocks (of the seat that moved and the seat to move, in a timed room), the
    words of the status sentence (swapped into its live region, so screen readers
    read every move), the log's new edges (appended to a turn that goes on, or new
    turns), and of the actions only what changes: a ``withdrawn`` offer goes and its
    button comes back, and the abort button goes once both have played.  Whose turn it is travels on
    the version marker, which ``rooms.js`` copies to the board and the seats.
    Everything else on the page (earlier edges, names, presence, chat, spectators)
    stays as it was; a page that missed a version re-fetches the whole room instead
    (``rooms.js``)."""
    view = room_view(room, messages=False, sockets=sockets)
    board, spans = view.board, view.spans
    first_new = len(board.move_stack) - len(change.drawn)
    last = spans[-1]
    board_oob = move_oob(
        board,
        drawn=[(Edge.parse(d.edge), d.side.player, d.claimed) for d in change.drawn],
        last=board.move_stack[last.start :],
        last_player=last.player,
        continued=last.start < first_new,
    )
    touched = [(s, t) for s, t in zip(spans, view.turns, strict=True) if s.stop > first_new]
    replaced, appended = [], None
    if touched and touched[0][0].start < first_new:  # the edge went on a turn already shown
        span, turn = touched[0]
        computer = room.game.computer_flags()
        if turn.by_computer == any(computer[span.start : first_new]):
            # Only its new edges: the turn's line may be long late in a game.
            new = board.move_stack[first_new : span.stop]
            appended = LogTurn(turn.number, turn.side, [str(e) for e in new], turn.by_computer)
        else:  # the computer took over mid-turn: the line gains its mark
            replaced = [turn]
    movers = {d.side.value for d in change.drawn}
    claimed = {d.side.value for d in change.drawn if d.claimed}
    # The clock moves to the seat to move and restarts on every edge.
    clocked = (movers | {view.to_move}) if room.timer_seconds else set()
    context = {
        "v": view,
        "kind": "game",
        "oob": True,
        "board_oob": mark_safe(board_oob),  # built from edges and numbers only
        "whole_log": first_new == 0,
        "replaced": replaced,
        "appended": appended,
        "added": [t for s, t in touched if s.start >= first_new],
        "scores": [seat for seat in view.seats if seat.side in claimed],
        "clocks": [seat for seat in view.seats if seat.side in clocked],
        # The offers this edge withdrew (their buttons come back); the abort button,
        # gone once both have played.
        "withdrawn": withdrawn,
        "abort_gone": not view.can_abort and len(spans) <= 3 and _could_abort(board, change),
    }
    # The partials' indentation is a third of the bytes: a run of white space shows as
    # one space in HTML, so it is sent as one.
    return _SPACE.sub(" ", render_to_string("rooms/push.html#move", context))


def _could_abort(board: Board, change: GameChanged) -> bool:
    """Whether the game could be aborted before this change's edges (early turns only)."""
    before = board.copy()
    for _ in change.drawn:
        before.pop()
    return not both_have_played(before)


def _send(group: str, html: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, {"type": "push", "html": html})
    except Exception as exc:  # a lost push is repaired by the clients' version check
        logger.warning("push to %s failed: %r", group, exc)


def language_group(group: str, language: str) -> str:
    """The group of the sockets that read ``group``'s pushes in ``language``."""
    return f"{group}.{language}"


def reader_languages(room: Room, sockets: list | None = None) -> list[str]:
    """The languages the room's open sockets read, in the site's order.

    A push is rendered only in these: rendering it in a language nobody in the
    room reads cost a second render on every move (1.5 ms of a 14 ms move).  A
    socket registers its language after joining its groups and is then told the
    room's version, so one that a push just missed re-fetches the room.  ``sockets``:
    the room's :func:`~dotsboxes.rooms.presenters.open_sockets`, when already read."""
    if sockets is None:
        sockets = open_sockets(room)
    found = {language for *_, language in sockets}
    spoken = [code for code, _name in settings.LANGUAGES]
    if "" in found:  # a socket from before languages were kept: every language
        return spoken
    return [code for code in spoken if code in found]


def _push_languages(room: Room, sockets: list) -> list[str]:
    """The readers' languages and this thread's: a request that made the change
    answers with the push it just rendered, in its own language."""
    languages = reader_languages(room, sockets)
    current = translation.get_language()
    if current not in languages and current in dict(settings.LANGUAGES):
        languages.append(current)
    return languages


def _send_in_each_language(group: str, render, languages=None) -> dict[str, str]:
    """Render once per language (every one the site speaks, or ``languages``) and
    send each to its readers' group."""
    rendered = {}
    if languages is None:
        languages = [code for code, _name in settings.LANGUAGES]
    for language in languages:
        with translation.override(language):
            rendered[language] = render()
        _send(language_group(group, language), rendered[language])
    return rendered


def send_room(room_id: int, kind: str = "game") -> None:
    """Render the room as it is now and push it to its group, in each language."""
    room = Room.objects.select_related("game").filter(pk=room_id).first()
    if room is not None:
        sockets = open_sockets(room)
        _send_in_each_language(
            room.group,
            lambda: render_room(room, kind, sockets=sockets),
            _push_languages(room, sockets),
        )


def room_after_commit(room_id: int, kind: str = "game") -> None:
    transaction.on_commit(lambda: send_room(room_id, kind))


def render_lobby(language: str | None = None) -> str:
    """The lobby's lists (in ``language``, default the current one)."""
    with translation.override(language or translation.get_language()):
        open_rooms, live = lobby_rooms()
        return render_to_string(
            "rooms/lobby.html#lists", {"open_rooms": open_rooms, "live": live, "oob": True}
        )


def send_lobby() -> None:
    _send_in_each_language(LOBBY_GROUP, render_lobby)


def lobby_after_commit() -> None:
    """Push the lobby's lists after commit (a room opened, or a rematch's game)."""
    transaction.on_commit(send_lobby, robust=True)


# Changes after which the game may have left the lobby's lists (it ended).
_ENDINGS = frozenset({"move", "timeout", "standin", "resign", "abort", "draw"})


def render_change(
    room: Room,
    change: GameChanged | None,
    withdrawn: tuple[str, ...] = (),
    sockets: list | None = None,
) -> str:
    """The push of one committed change, in the active language: the lean push of an
    edge in a game that goes on; the board, result and actions of a game's last edge
    (spectators and chat as they were); the whole room for every other change (and
    for ``None``, a command that changed nothing).  Rendered from the instances the
    command changed, exactly what was committed at this version (its board is cached
    on the game: nothing is replayed)."""
    if change is not None and change.event == "move":
        if change.active:
            return render_move(room, change, withdrawn, sockets)
        return render_room(room, "move", messages=False, sockets=sockets)
    return render_room(room, sockets=sockets)


def publish(room: Room, change: GameChanged, withdrawn: tuple[str, ...] = ()) -> dict[str, str]:
    """Push a committed change to everyone in the room (and the lobby, when the game
    filled or ended it); returns the push rendered in each language."""
    if change.event == "rematch":
        # Send everyone in the room (players and spectators) to the rematch.
        new = room.game.rematches.select_related("room").first()
        if new is not None:
            context = {"url": new.get_absolute_url(), "version": change.version}
            _send(room.group, render_to_string("rooms/redirect.html", context))
    # One read of the sockets serves the languages and every language's render.
    sockets = open_sockets(room)
    rendered = _send_in_each_language(
        room.group,
        partial(render_change, room, change, withdrawn, sockets),
        _push_languages(room, sockets),
    )
    if change.event == "seated" or (not change.active and change.event in _ENDINGS):
        send_lobby()
    return rendered
