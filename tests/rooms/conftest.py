"""Fixtures for the online rooms: named browsers (sessions) and rooms between them."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from dotsboxes.rooms.models import Room


class RoomListener:
    """Hears what a room pushes to its groups, as a consumer would.

    Subscribing and receiving run on one event loop of the listener's own, in its own
    thread: channels-redis keeps its connections per loop, so a channel made in one
    loop cannot be read from another (each ``async_to_sync`` call makes a new one).
    """

    def __init__(self) -> None:
        from channels.layers import get_channel_layer

        self.layer = get_channel_layer()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def _run(self, coroutine, timeout: float = 10.0):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def listen(self, room: Room) -> str:
        """A new channel in every language group of ``room``."""
        from django.conf import settings

        from dotsboxes.rooms import push

        async def listen() -> str:
            channel = await self.layer.new_channel()
            for code, _name in settings.LANGUAGES:
                await self.layer.group_add(push.language_group(room.group, code), channel)
            return channel

        return self._run(listen())

    def heard(self, channel: str, timeout: float = 5.0) -> dict:
        """The next message on ``channel`` (fails after ``timeout`` seconds of silence)."""
        return self._run(asyncio.wait_for(self.layer.receive(channel), timeout), timeout + 5)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


@pytest.fixture
def listener():
    one = RoomListener()
    yield one
    one.close()


@pytest.fixture(autouse=True, scope="session")
def _short_lived_connections():
    # Consumers and the clock use the ORM from worker threads; with persistent
    # connections those would keep the test database open past its teardown.
    from django.db import connections

    connections.settings["default"]["CONN_MAX_AGE"] = 0


@pytest.fixture(autouse=True)
def _room_clock_off(settings):
    # Tests drive the clock explicitly (ticker.tick); no background task may race them.
    settings.ROOMS_TICKER = "off"


def browser() -> Client:
    """A separate browser: its own cookies, hence its own session and seat token."""
    return Client()


def open_room(client: Client, name: str = "Alice", **fields: object) -> Room:
    data = {
        "width": 2,
        "height": 2,
        "side": "blue",
        "timer": 0,
        "visibility": "public",
        "name": name,
    }
    data.update(fields)
    response = client.post(reverse("rooms:create"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    public_id = response["Location"].rstrip("/").rsplit("/", 1)[-1]
    return Room.objects.select_related("game").get(game__public_id=public_id)


def join(client: Client, room: Room, name: str = "Bob"):
    return client.post(reverse("rooms:join", args=[room.game.public_id]), {"name": name})


def act(client: Client, room: Room, name: str, *args: str, htmx: bool = True, **data: object):
    room.game.refresh_from_db()
    data.setdefault("version", room.game.version)
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(
        reverse(f"rooms:{name}", args=[room.game.public_id, *args]), data, headers=headers
    )


def fresh(room: Room) -> Room:
    """The room and its game as stored now."""
    return Room.objects.select_related("game").get(pk=room.pk)


def signed_in(name: str) -> Client:
    """A browser signed in as a new account ``name``."""
    client = Client()
    client.force_login(get_user_model().objects.create_user(name))
    return client


@pytest.fixture
def alice() -> Client:
    return browser()


@pytest.fixture
def bob() -> Client:
    return browser()


@pytest.fixture
def carol() -> Client:
    return browser()


@pytest.fixture
def room(db, alice, bob) -> Room:
    """A 2 x 2 boxes room: Alice (host) plays Blue, Bob took the Red seat."""
    room = open_room(alice)
    assert join(bob, room).status_code == 302
    room.refresh_from_db()
    return room
