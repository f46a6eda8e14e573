"""WebSockets: pushes only.  Every action travels over HTTP; a socket just listens.

Frames a client sends are refused: the socket is closed with 1009 for anything
over 16 KiB and 1003 otherwise (well-behaved pages never send any).  Foreign
origins are refused at the handshake by ``AllowedHostsOriginValidator``.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation

from dotsboxes import throttle

from . import presence, push, watchdog
from .identity import socket_language, viewer_from_scope
from .push import LOBBY_GROUP

logger = logging.getLogger(__name__)
MAX_FRAME = 16 * 1024
CLOSE_UNSUPPORTED = 1003
CLOSE_TOO_BIG = 1009
CLOSE_NO_ROOM = 4404
CLOSE_TOO_MANY = 4429  # too many handshakes from this browser or address: wait, then reload


def _db(fn):  # ORM work off the event loop, in parallel threads (not Channels' single one)
    return database_sync_to_async(fn, thread_sensitive=False)


def _close_reason(text: str) -> str:
    """``text`` cut to the 123 bytes of UTF-8 a WebSocket close reason may carry."""
    return text.encode()[:123].decode(errors="ignore")


class PushOnlyConsumer(AsyncWebsocketConsumer):
    """Shared refusal of client frames, and no push once the socket is closing.

    A push can arrive between our ``close`` (or the client's) and the disconnect
    that takes the socket out of its group; sending it then is a protocol error
    the server reports ("Unexpected ASGI message 'websocket.send', after sending
    'websocket.close'"), so it is dropped: the socket is going away anyway."""

    closed = False
    # The channel-layer groups this socket listens to (set in ``connect``): its room's,
    # and its language's, in which every push with words is rendered.
    subscriptions: tuple[str, ...] = ()

    async def join(self) -> None:
        for group in self.subscriptions:
            await self.channel_layer.group_add(group, self.channel_name)

    async def leave(self) -> None:
        for group in self.subscriptions:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def websocket_connect(self, message: dict) -> None:
        # A flood of handshakes (each one a presence row and a push) is refused
        # before any of that work; pages reconnect with a back-off, far below this.
        wait = await _db(throttle.hit)("socket", *throttle.scope_keys(self.scope))
        if wait:
            # Accepted, then closed: a close before the accept reaches the browser as an
            # HTTP 403 on the handshake (uvicorn), and the page learns neither code nor wait.
            with translation.override(socket_language(self.scope)):
                reason = throttle.message(wait)
            await self.accept()
            await self.close(code=CLOSE_TOO_MANY, reason=_close_reason(reason))
            return
        await super().websocket_connect(message)

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        if not self.closed:
            self.closed = True
            await super().close(code=code, reason=reason)

    async def websocket_disconnect(self, message: dict) -> None:
        self.closed = True
        await super().websocket_disconnect(message)

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        if not self.closed:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
        code = CLOSE_TOO_BIG if size > MAX_FRAME else CLOSE_UNSUPPORTED
        await self.close(code=code, reason="This socket only pushes updates; act over HTTP.")

    async def dispatch(self, message: dict) -> None:
        # Channels closes stale database connections before every handler: a hop to
        # the process's single sync thread and back, for each message on each socket
        # (12 per move in a room of 12), serialised across the whole process.  A push
        # touches no database, and our own ORM calls (``_db``) close theirs, so pushes
        # go straight to the socket.
        if message["type"] == "push":
            await self.push(message)
        else:
            await super().dispatch(message)

    async def push(self, event: dict) -> None:
        await self.send(text_data=event["html"])


class RoomConsumer(PushOnlyConsumer):
    """Everyone in a room: both players and every spectator."""

    async def connect(self) -> None:
        self.public_id = self.scope["url_route"]["kwargs"]["public_id"]
        group = f"room.{self.public_id}"
        language = socket_language(self.scope)
        self.subscriptions = (group, push.language_group(group, language))
        self.registered = False
        viewer = viewer_from_scope(self.scope, self.channel_name)
        # Join the groups first: a change committed while we register still reaches us.
        await self.join()
        found = await _db(presence.connection_open)(
            public_id=self.public_id,
            channel_name=self.channel_name,
            viewer=viewer,
            language=language,
        )
        if found is None:
            await self.leave()
            await self.close(code=CLOSE_NO_ROOM)
            return
        self.registered = True
        await self.accept()
        watchdog.register(self)
        schedule_presence_push(found[0])
        # Tell the page the current version at once, so it re-fetches if it missed anything
        # between rendering and subscribing.
        version = await _db(_version)(self.public_id)
        await self.send(text_data=_hello(version))

    async def resync(self) -> None:
        """Tell the page the room's current version (after pushes may have been lost)."""
        await self.send(text_data=_hello(await _db(_version)(self.public_id)))

    async def disconnect(self, code: int) -> None:
        watchdog.unregister(self)
        await self.leave()
        if getattr(self, "registered", False):
            room_id = await _db(presence.connection_close)(channel_name=self.channel_name)
            if room_id is not None:
                schedule_presence_push(room_id)


class LobbyConsumer(PushOnlyConsumer):
    """The lobby's lists of open rooms and live games."""

    async def connect(self) -> None:
        self.language = socket_language(self.scope)
        self.subscriptions = (push.language_group(LOBBY_GROUP, self.language),)
        await self.join()
        await self.accept()
        watchdog.register(self)

    async def resync(self) -> None:
        """Send the lists as they are now (after pushes may have been lost)."""
        await self.send(text_data=await _db(push.render_lobby)(self.language))

    async def disconnect(self, code: int) -> None:
        watchdog.unregister(self)
        await self.leave()


class UnknownPathConsumer(AsyncWebsocketConsumer):
    """Any other WebSocket path: refused at the handshake (Channels' router raised, a 500)."""

    async def connect(self) -> None:
        await self.close(code=CLOSE_NO_ROOM)


_pending: dict[int, asyncio.TimerHandle] = {}


def schedule_presence_push(room_id: int) -> None:
    """Push the room's presence shortly, once for every arrival and departure meanwhile.

    Without this, each of n spectators joining re-renders the room for all the
    others: n squared work when a crowd arrives."""
    if room_id in _pending:
        return
    delay = float(settings.ROOMS_PRESENCE_PUSH_DELAY)
    loop = asyncio.get_running_loop()
    _pending[room_id] = loop.call_later(delay, lambda: loop.create_task(_push_presence(room_id)))


async def _push_presence(room_id: int) -> None:
    _pending.pop(room_id, None)
    try:
        await _db(push.send_room)(room_id, "presence")
    except Exception:
        logger.exception("presence push for room %s failed", room_id)


def _version(public_id: str) -> int:
    from dotsboxes.games.models import Game

    return Game.objects.filter(public_id=public_id).values_list("version", flat=True).first() or 0


def _hello(version: int) -> str:
    return (
        f'<div id="room-sync" hx-swap-oob="true" hidden data-version="{int(version)}" '
        f'data-kind="hello"></div>'
    )
