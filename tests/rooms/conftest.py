"""Fixtures for the online rooms: named browsers (sessions) and rooms between them."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from dotsboxes.rooms.models import Room

ACROSS_LOOPS = pytest.mark.skipif(
    bool(os.environ.get("REDIS_URL")),
    reason="listens on a channel made in one event loop and receives in another, which "
    "channels-redis does not serve (it timed out); the in-memory layer runs it, and the live "
    "server tests cover pushes over Redis",
)


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
