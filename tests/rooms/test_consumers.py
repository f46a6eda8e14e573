"""The room's WebSocket, through the real ASGI router, on the in-memory layer and on Redis."""

from __future__ import annotations

import asyncio
import functools
import os
import re
import uuid
import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from dotsboxes.asgi import application
from dotsboxes.rooms.models import Connection, Room
from dotsboxes.settings import redis_channel_host
from tests.rooms.conftest import act, join, open_room

pytestmark = pytest.mark.django_db(transaction=True)
REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/5"
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def own_loop(test):
    """Run an async test on a fresh event loop in its own thread.

    Playwright's sync API keeps a loop running in the main thread for the whole
    session, so tests that share a worker with the browser tests cannot start
    one there."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(_run_and_close, test(*args, **kwargs)).result()

    return run


def _run_and_close(coro, *, grace: float = 10.0):
    """``asyncio.run`` with a bounded teardown.

    ``asyncio.run`` cancels the tasks a test leaves behind and then waits for them
    without a limit.  channels-redis's list layer cleans up a cancelled ``receive``
    by awaiting Redis again, and once in a few hundred runs that cleanup never ended:
    the whole suite hung after a passing test (seen in a full CI run and in a rooms
    run).  Here the leftovers get ``grace`` seconds; any still running are named in a
    warning and the loop is closed anyway.
    """
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coro)
    finally:
        tasks = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            _done, stuck = loop.run_until_complete(asyncio.wait(tasks, timeout=grace))
            if stuck:
                warnings.warn(f"tasks left running at the test's end: {stuck!r}", stacklevel=1)
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.run_until_complete(loop.shutdown_default_executor())
        loop.close()


def _redis_up() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS_URL, socket_timeout=1).ping())
    except Exception:
        return False


@pytest.fixture(params=["memory", "redis"])
def layer(request, settings):
    """Run each test once per channel layer (Redis with a private prefix)."""
    if request.param == "redis":
        if not _redis_up():
            if os.environ.get("REDIS_URL"):
                pytest.fail(f"REDIS_URL is set but Redis does not answer at {REDIS_URL}")
            pytest.skip(f"no Redis at {REDIS_URL}")
        # The product's host options: with redis-py's default 5 s socket timeout the
        # list layer's 5 s blocking read timed out on a loaded CI machine and killed a
        # tournament socket's consumer (Timeout reading from 127.0.0.1:6379).
        config = {
            "hosts": [redis_channel_host(REDIS_URL)],
            "prefix": f"test-{uuid.uuid4().hex[:8]}",
        }
        settings.CHANNEL_LAYERS = {
            "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": config}
        }
    else:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    yield request.param
    channel_layers.backends.clear()


def socket(client: Client | None, room: Room, origin: str = "http://localhost"):
    headers = [(b"origin", origin.encode()), (b"host", b"localhost")]
    if client is not None and "sessionid" in client.cookies:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(application, f"/ws/rooms/{room.game.public_id}/", headers=headers)


async def call(fn, *args, **kwargs):
    """Run ORM code in a worker thread and close its connection there (the test
    database must have no sessions left when it is dropped)."""

    def run():
        try:
            return fn(*args, **kwargs)
        finally:
            connections.close_all()

    return await sync_to_async(run)()


def version_of(html: str) -> tuple[int, str]:
    match = re.search(r'data-version="(\d+)" data-kind="(\w+)"', html)
    assert match, html[:300]
    return int(match[1]), match[2]


async def next_kind(ws, kind: str, timeout: float = 5) -> str:
    """The next push of ``kind`` (skipping presence and chat pushes in between)."""
    while True:
        html = await ws.receive_from(timeout=timeout)
        if version_of(html)[1] == kind:
            return html


async def close_code(ws) -> int:
    """The code the server closed the socket with (pushes before it are skipped)."""
    while True:
        output = await ws.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output["code"]


@pytest.fixture
def players():
    alice, bob = Client(), Client()
    room = open_room(alice)
    join(bob, room)
    return alice, bob, Room.objects.select_related("game").get(pk=room.pk)


@own_loop
async def test_a_spectator_hears_each_move_with_the_new_version(layer, players):
    alice, bob, room = players
    carol = Client()
    ws = socket(carol, room)
    connected, _ = await ws.connect()
    assert connected
    try:
        start = room.game.version
        hello = await ws.receive_from(timeout=5)
        assert version_of(hello) == (start, "hello")
        await call(act, alice, room, "move", edge="a1-b1")
        html = await next_kind(ws, "game")
        assert version_of(html)[0] == start + 1
        assert 'data-edge="a1-b1"' in html and 'data-turn="red"' in html
        await call(act, bob, room, "move", edge="a3-b3")
        assert version_of(await next_kind(ws, "game"))[0] == start + 2
    finally:
        await ws.disconnect()


@own_loop
async def test_chat_and_offers_reach_both_players(layer, players):
    alice, bob, room = players
    ws = socket(bob, room)
    await ws.connect()
    try:
        await ws.receive_from(timeout=5)  # hello
        await call(act, alice, room, "chat", text="<b>hi</b>")
        chat = await next_kind(ws, "chat")
        assert "&lt;b&gt;hi&lt;/b&gt;" in chat
        await call(act, alice, room, "offer", "draw")
        offer = await next_kind(ws, "game")
        assert "offers a draw" in offer and 'data-for="red"' in offer
    finally:
        await ws.disconnect()


@own_loop
async def test_presence_is_recorded_per_socket_and_starts_the_away_countdown(layer, players):
    _alice, bob, room = players
    first, second = socket(bob, room), socket(bob, room)
    await first.connect()
    await second.connect()
    try:
        seats = await call(lambda: sorted(Connection.objects.values_list("side", flat=True)))
        assert seats == ["red", "red"]
        await first.disconnect()
        still = await call(Room.objects.get, pk=room.pk)
        assert still.red_away_deadline is None  # another tab is still open
    finally:
        await second.disconnect()
    after = await call(Room.objects.get, pk=room.pk)
    assert after.red_away_deadline is not None and not after.red_standin
    again = socket(bob, room)
    await again.connect()
    back = await call(Room.objects.get, pk=room.pk)
    assert back.red_away_deadline is None
    await again.disconnect()


@own_loop
async def test_spectators_are_counted_and_named_in_pushes(layer, players):
    alice, _bob, room = players
    watcher = socket(None, room)
    await watcher.connect()
    ws = socket(alice, room)
    await ws.connect()
    try:
        await ws.receive_from(timeout=5)
        presence = await next_kind(ws, "presence")
        assert '<span class="count">1</span>' in presence
    finally:
        await ws.disconnect()
        await watcher.disconnect()


@own_loop
async def test_a_rematch_sends_everyone_to_the_new_room(layer, players):
    alice, bob, room = players
    ws = socket(Client(), room)
    await ws.connect()
    try:
        await call(act, alice, room, "resign")
        await call(act, alice, room, "offer", "rematch")
        await call(act, bob, room, "answer", "rematch", answer="accept")
        html = await next_kind(ws, "redirect")
        new = await sync_to_async(Room.objects.select_related("game").get)(
            game__rematch_of=room.game
        )
        assert f'data-redirect="{new.get_absolute_url()}"' in html
    finally:
        await ws.disconnect()


@own_loop
async def test_garbage_frames_close_the_socket_and_change_nothing(layer, players):
    alice, _bob, room = players
    ws = socket(alice, room)
    await ws.connect()
    await ws.receive_from(timeout=5)
    await ws.send_to(text_data='{"type": "move", "edge": "a1-b1"}')
    assert await close_code(ws) == 1003
    await ws.wait()
    assert (
        await call(
            room.game.moves.count,
        )
        == 0
    )


@pytest.mark.parametrize(
    "frame", [b"\x00\xff" * 9000, "x" * (16 * 1024 + 1)], ids=["binary", "text"]
)
@own_loop
async def test_frames_over_16_kib_are_refused_with_1009(layer, players, frame):
    alice, _bob, room = players
    ws = socket(alice, room)
    await ws.connect()
    await ws.receive_from(timeout=5)
    if isinstance(frame, bytes):
        await ws.send_to(bytes_data=frame)
    else:
        await ws.send_to(text_data=frame)
    assert await close_code(ws) == 1009
    await ws.wait()


@own_loop
async def test_a_foreign_origin_is_refused_at_the_handshake(layer, players):
    alice, _bob, room = players
    ws = socket(alice, room, origin="https://evil.example")
    connected, _ = await ws.connect()
    assert not connected
    assert (
        await call(
            Connection.objects.count,
        )
        == 0
    )
    await asyncio.wait_for(ws.disconnect(), 10)  # the refusing app stops with its channel


@own_loop
async def test_an_unknown_room_is_refused(layer, db):
    ws = WebsocketCommunicator(
        application, "/ws/rooms/nosuchroom12/", headers=[(b"origin", b"http://localhost")]
    )
    connected, code = await ws.connect()
    assert not connected and code == 4404


@own_loop
async def test_the_lobby_hears_new_rooms(layer, db):
    ws = WebsocketCommunicator(
        application, "/ws/rooms/", headers=[(b"origin", b"http://localhost")]
    )
    connected, _ = await ws.connect()
    assert connected
    try:
        await call(open_room, Client(), "Dora")
        html = await ws.receive_from(timeout=5)
        assert 'id="lobby-lists"' in html and "Dora (Blue)" in html
    finally:
        await ws.disconnect()


@own_loop
async def test_a_push_is_rendered_in_the_languages_of_the_sockets_in_the_room(layer, players):
    from dotsboxes.rooms.push import reader_languages

    alice, bob, room = players
    english = WebsocketCommunicator(
        application, f"/ws/rooms/{room.game.public_id}/?lang=en", headers=HEADERS
    )
    chinese = WebsocketCommunicator(
        application, f"/ws/rooms/{room.game.public_id}/?lang=zh-hans", headers=HEADERS
    )
    assert (await english.connect())[0] and (await chinese.connect())[0]
    try:
        await english.receive_from(timeout=5)
        await chinese.receive_from(timeout=5)
        rows = await call(lambda: sorted(Connection.objects.values_list("language", flat=True)))
        assert rows == ["en", "zh-hans"]
        assert await call(reader_languages, room) == ["en", "zh-hans"]
        await call(act, alice, room, "move", edge="a1-b1")
        assert "蓝方" in await next_kind(chinese, "game")
        assert "Blue" in await next_kind(english, "game")
    finally:
        await chinese.disconnect()
    # Nobody reads Chinese now: the next move is rendered in English alone.
    assert await call(reader_languages, room) == ["en"]
    try:
        await call(act, bob, room, "move", edge="a3-b3")
        assert "Red" in await next_kind(english, "game")
    finally:
        await english.disconnect()
    assert await call(reader_languages, room) == []
