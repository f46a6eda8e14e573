"""Two real server processes sharing PostgreSQL and Redis, one uvicorn (production's
server) and one Daphne (``runserver``'s): a move posted to one reaches a spectator
connected to the other, both ways round."""

from __future__ import annotations

import asyncio
import os
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from yarl import URL

from tests.rooms.live import asgi_servers, server_env, worker_ports

pytestmark = pytest.mark.django_db(transaction=True)


def _needs_shared_services() -> None:
    if connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"):
        pytest.skip(
            "two processes must share a server database and a channel layer: "
            "set DATABASE_URL (PostgreSQL) and REDIS_URL"
        )


async def _csrf(session, base: str, path: str) -> str:
    async with session.get(base + path) as response:
        assert response.status == 200
        await response.text()
    return session.cookie_jar.filter_cookies(URL(base))["csrftoken"].value


async def _post(session, base: str, path: str, data: dict, *, htmx: bool = False):
    token = session.cookie_jar.filter_cookies(URL(base))["csrftoken"].value
    headers = {"X-CSRFToken": token}
    if htmx:
        headers["HX-Request"] = "true"
    return await session.post(base + path, data=data, headers=headers, allow_redirects=False)


async def _scenario(one: str, two: str) -> None:
    import aiohttp

    jar = lambda: aiohttp.CookieJar(unsafe=True)  # noqa: E731  (cookies for 127.0.0.1)
    async with (
        aiohttp.ClientSession(cookie_jar=jar()) as alice,
        aiohttp.ClientSession(cookie_jar=jar()) as bob,
        aiohttp.ClientSession(cookie_jar=jar()) as carol,
    ):
        await _csrf(alice, one, "/rooms/")
        form = {"width": 3, "height": 3, "side": "blue", "timer": 0, "visibility": "public"}
        created = await _post(alice, one, "/rooms/new", {**form, "name": "Alice"})
        assert created.status == 302, await created.text()
        room_path = created.headers["Location"]
        public_id = room_path.strip("/").split("/")[-1]

        await _csrf(bob, two, room_path)
        joined = await _post(bob, two, room_path + "join", {"name": "Bob"})
        assert joined.status == 302

        origin = {"Origin": two}
        async with carol.ws_connect(
            f"{two.replace('http', 'ws')}/ws/rooms/{public_id}/", headers=origin
        ) as ws:
            hello = await ws.receive_str(timeout=10)
            version = int(re.search(r'data-version="(\d+)"', hello)[1])
            async with alice.get(one + room_path) as page:  # Alice's page, on server one
                assert page.status == 200
            moved = await _post(
                alice, one, room_path + "move", {"edge": "a1-b1", "version": version}, htmx=True
            )
            assert moved.status == 200, await moved.text()
            while True:
                push = await ws.receive_str(timeout=10)
                if 'data-kind="game"' in push:
                    break
            assert f'data-version="{version + 1}"' in push
            assert 'data-edge="a1-b1"' in push and 'data-turn="red"' in push


@pytest.mark.parametrize("kinds", [["uvicorn", "daphne"], ["daphne", "uvicorn"]])
def test_a_move_on_one_server_reaches_a_spectator_on_the_other(transactional_db, tmp_path, kinds):
    _needs_shared_services()
    env = server_env(tmp_path, ROOMS_TICKER="embedded")
    # Playwright may hold this thread's event loop: run the clients in a thread of their own.
    with (
        asgi_servers(env, worker_ports(2), kinds) as (one, two),
        ThreadPoolExecutor(1) as pool,
    ):
        pool.submit(asyncio.run, _scenario(one, two)).result(timeout=120)
