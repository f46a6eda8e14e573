"""WebSocket edge cases: a push racing a close, and handshakes to paths nobody serves."""

from __future__ import annotations

import time

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.test import Client

from dotsboxes.asgi import application
from dotsboxes.rooms.models import Room
from tests.rooms.conftest import join, open_room
from tests.rooms.test_consumers import close_code, own_loop, socket

pytestmark = pytest.mark.django_db(transaction=True)
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


@pytest.fixture
def room_of_two():
    alice, bob = Client(), Client()
    room = open_room(alice)
    join(bob, room)
    return Room.objects.select_related("game").get(pk=room.pk)


@own_loop
async def test_a_push_arriving_after_the_socket_closed_is_dropped(room_of_two):
    ws = socket(None, room_of_two)
    connected, _ = await ws.connect()
    assert connected
    await ws.receive_from(timeout=5)  # hello
    await ws.send_to(text_data="hello?")  # refused: the consumer closes the socket
    assert await close_code(ws) == 1003
    # The consumer is still in the room's group until its disconnect runs: a push now
    # must not be sent after the close (uvicorn raised "Unexpected ASGI message").
    await get_channel_layer().group_send(room_of_two.group, {"type": "push", "html": "<p>x</p>"})
    assert await ws.receive_nothing(timeout=0.5)
    await ws.disconnect()


@own_loop
@pytest.mark.parametrize(
    "path",
    ["/ws/x/", "/ws/rooms/%00/", "/ws/rooms/a/b/c/", "/", "/ws/", "/ws/rooms/" + "a" * 300 + "/"],
)
async def test_a_handshake_to_an_unknown_path_is_refused_cleanly(path):
    ws = WebsocketCommunicator(application, path, headers=HEADERS)
    connected, code = await ws.connect(timeout=5)
    assert not connected
    assert code == 4404
    await ws.wait(timeout=5)  # the application ended without an error


async def handshake_flood(base: str, address: str, limit: int = 300, wait: float = 0.05) -> dict:
    """Lobby handshakes from ``address`` until one is refused with 4429 (or ``limit``),
    each watched ``wait`` seconds for its close (1 s from the 110th on)."""
    import aiohttp

    url = base.replace("http", "ws") + "/ws/rooms/"
    headers = {"Origin": "http://127.0.0.1"}
    other_closes = []
    # From an address of its own: a page another test left open on this port reconnects
    # its room sockets from 127.0.0.1, and each of its handshakes counts there (the
    # flood was refused at its 112th and 113th handshake in two full runs).
    connector = aiohttp.TCPConnector(local_addr=(address, 0))
    async with aiohttp.ClientSession(connector=connector) as session:
        for n in range(limit):  # 120 a minute from one address
            async with session.ws_connect(url, headers=headers) as ws:
                try:  # an open lobby socket sends nothing; a refused one closes at once
                    message = await ws.receive(timeout=wait if n < 110 else 1)
                except TimeoutError:
                    continue
                if message.type != aiohttp.WSMsgType.CLOSE:
                    continue
                if message.data != 4429:
                    other_closes.append((n, message.data, message.extra))
                    continue
                return {"n": n, "reason": message.extra, "other_closes": other_closes}
    return {"other_closes": other_closes}


def early_in_a_minute(room: float) -> None:
    """Counts are per clock minute: start where ``room`` seconds of this one are left."""
    if 60 - time.time() % 60 < room:
        time.sleep(60 - time.time() % 60 + 0.2)


def test_over_uvicorn_a_handshake_flood_gets_4429_and_the_wait_not_a_403(tmp_path):
    """Issue 23.7, through production's server: a close before the accept reached the
    browser as an HTTP 403 on the handshake; now the socket opens, then closes with 4429."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from tests.rooms.live import asgi_servers, server_env, worker_ports

    env = server_env(tmp_path)
    env.pop("REDIS_URL", None)  # its own in-memory counts: never the shared Redis's
    env.pop("CHANNEL_LAYER", None)
    # A flood that straddled a minute's end would meet a fresh count half-way (and wait
    # 1 s a socket past the 110th for up to 240 sockets).
    early_in_a_minute(40)
    with asgi_servers(env, worker_ports(1), ["uvicorn"]) as (base,), ThreadPoolExecutor(1) as pool:
        refused = pool.submit(asyncio.run, handshake_flood(base, "127.0.0.2")).result(timeout=240)
    assert refused.get("n") is not None, f"no handshake was refused: {refused}"
    assert refused["other_closes"] == []
    assert refused["n"] >= 120, refused
    assert refused["reason"].startswith("Too many tries in a short time. Please wait ")


def test_two_sites_on_one_redis_keep_their_own_counts(tmp_path):
    """Each site's cache keys carry its ``CACHE_KEY_PREFIX``.  Without one, every server
    on the suite's shared Redis counted every other's handshakes per address (and per
    user id, which each fresh database starts at 1 again): CI's tournament pages, their
    sockets refused, never heard a push.  A flood one site refuses leaves the other's
    count for the same address alone, within the same minute."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from tests.rooms.live import asgi_servers, server_env, worker_ports

    envs = []
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        envs.append(server_env(tmp_path / name))
    one_port, two_port = worker_ports(2)
    early_in_a_minute(30)
    minute = int(time.time() // 60)

    def run(*args, **kwargs) -> dict:
        return pool.submit(asyncio.run, handshake_flood(*args, **kwargs)).result(timeout=240)

    with (
        asgi_servers(envs[0], [one_port], ["uvicorn"]) as (one,),
        asgi_servers(envs[1], [two_port], ["uvicorn"]) as (two,),
        ThreadPoolExecutor(1) as pool,
    ):
        flooded = run(one, "127.0.0.3")
        assert flooded.get("n") is not None, f"no handshake was refused: {flooded}"
        elsewhere = run(two, "127.0.0.3", limit=3, wait=1)
        again = run(one, "127.0.0.3", limit=3, wait=1)
    assert int(time.time() // 60) == minute, "the minute ended: the counts started again"
    assert elsewhere == {"other_closes": []}, "the other site refused the address too"
    assert again.get("n") == 0, "the flooded site let the address in again"
