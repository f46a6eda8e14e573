"""Pushes: render a change once, send it to everyone in the room after commit.

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
from django.db import transaction
from django.template.loader import render_to_string

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


def render_room(room: object, kind: str = "game", *, view: object = None) -> str:
    """The out-of-band fragments for one change, starting with the version marker."""
    from .presenters import room_view

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
    from .models import Room

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


def move_after_commit(room: object, game: object, board: object, computer: list[bool]) -> None:
    """Push an edge after commit, rendered from the rows the move just saved.

    They are exactly what was committed at this version (reading them again could
    only find a later version, which has its own push); only presence is read."""
    from .presenters import room_view

    def send() -> None:
        view = room_view(room, board=board, computer=computer, messages=False)
        html = render_room(room, "move", view=view)
        _last.render = (room.pk, game.version, html)
        _send(room.group, html)

    transaction.on_commit(send)


def redirect_after_commit(room_id: int, url: str) -> None:
    """Send everyone in the room (players and spectators) to ``url``: the rematch."""
    from .models import Room

    def send() -> None:
        room = Room.objects.select_related("game").get(pk=room_id)
        html = render_to_string("rooms/redirect.html", {"url": url, "version": room.game.version})
        _send(room.group, html)

    transaction.on_commit(send)


def render_lobby() -> str:
    from .presenters import lobby_rooms

    open_rooms, live = lobby_rooms()
    return render_to_string(
        "rooms/lobby.html#lists", {"open_rooms": open_rooms, "live": live, "oob": True}
    )


def lobby_after_commit() -> None:
    transaction.on_commit(lambda: _send(LOBBY_GROUP, render_lobby()))
