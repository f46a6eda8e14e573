"""Pushes: render a change once, send it to everyone in the room after commit.

A change to a room's game reaches this module as the game core's one change
event (:func:`on_game_changed`, a listener of
:data:`dotsboxes.games.events.game_changed`); chat and presence, which leave
the game as it was, push by themselves with :func:`room_after_commit`.

The channel layer may drop a message (a full channel, a Redis hiccup); that is
fine because every push carries the game's version and a client that sees a
gap re-fetches the room over HTTP.  Pushes are therefore always scheduled with
``transaction.on_commit``: a client must never hear of a change that could
still roll back.
"""

from __future__ import annotations

import logging
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.dispatch import receiver
from django.template.loader import render_to_string

from dotsboxes.games.events import GameChanged, game_changed
from dotsboxes.games.models import Game

from .models import Room
from .presenters import lobby_rooms, room_view

logger = logging.getLogger(__name__)
LOBBY_GROUP = "lobby"

# What each kind of push carries: offers, results and the clock's turns change
# nearly everything, presence and chat only their own corners.  A plain edge
# ("move", sent to the page as a "game" push) leaves the spectators and the chat
# as they were, so it skips them: most pushes are edges, and the two lists are
# the part of the room that grows.
FRAGMENTS = {
    "game": ("board", "players", "status", "actions", "log", "spectators", "chat"),
    "move": ("board", "players", "status", "actions", "log"),
    "presence": ("players", "status", "spectators", "chat"),
    "chat": ("chat",),
}


def render_room(room: Room, kind: str = "game", *, view: object = None) -> str:
    """The out-of-band fragments for one change, starting with the version marker."""
    view = view or room_view(room)
    marker = "game" if kind == "move" else kind  # the page versions an edge like any change
    return render_to_string(
        "rooms/push.html", {"v": view, "kind": marker, "parts": FRAGMENTS[kind], "oob": True}
    )


def _send(group: str, html: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, {"type": "push", "html": html})
    except Exception as exc:  # a lost push is repaired by the clients' version check
        logger.warning("push to %s failed: %r", group, exc)


# The last "game" push rendered in this thread, so the request that caused it can
# answer with the same fragments instead of rendering them a second time.
_last = threading.local()


def send_room(room_id: int, kind: str = "game") -> None:
    """Render the room as it is now and push it to its group."""
    room = Room.objects.select_related("game").filter(pk=room_id).first()
    if room is not None:
        html = render_room(room, kind)
        if kind == "game":
            _last.render = (room_id, room.game.version, html)
        _send(room.group, html)


def rendered_for(room: object) -> str:
    """The room's fragments: the push just sent from this thread if it is current."""
    last = getattr(_last, "render", None)
    if last is not None and last[0] == room.pk and last[1] == room.game.version:
        return last[2]
    return render_room(room)


def room_after_commit(room_id: int, kind: str = "game") -> None:
    transaction.on_commit(lambda: send_room(room_id, kind))


def render_lobby() -> str:
    open_rooms, live = lobby_rooms()
    return render_to_string(
        "rooms/lobby.html#lists", {"open_rooms": open_rooms, "live": live, "oob": True}
    )


# Changes after which the game may have left the lobby's lists (it ended).
_ENDINGS = frozenset({"move", "timeout", "standin", "resign", "abort", "draw"})


@receiver(game_changed, dispatch_uid="rooms.push")
def on_game_changed(sender: object, *, change: GameChanged, **kwargs: object) -> None:
    """Push a committed change of a room's game to everyone in the room (and the lobby).

    Rendered from the instances the command changed, exactly what was committed
    at this version (its board is cached on the game: nothing is replayed).  A
    plain edge (``move``) leaves spectators and chat as they were and skips them."""
    game = change.game
    if game.mode != Game.Mode.ONLINE:
        return
    try:
        room = game.room
    except ObjectDoesNotExist:
        return
    if change.event == "created":  # a new room: nobody is in it yet, the lobby shows it
        _send(LOBBY_GROUP, render_lobby())
        return
    if change.event == "rematch":
        # Send everyone in the room (players and spectators) to the rematch.
        new = game.rematches.select_related("room").first()
        if new is not None:
            context = {"url": new.get_absolute_url(), "version": change.version}
            _send(room.group, render_to_string("rooms/redirect.html", context))
    if change.event == "move":
        html = render_room(room, "move", view=room_view(room, messages=False))
    else:
        html = render_room(room)
    _last.render = (room.pk, change.version, html)
    _send(room.group, html)
    if change.event == "seated" or (not change.active and change.event in _ENDINGS):
        _send(LOBBY_GROUP, render_lobby())
