"""Games against the computer go on while Redis is down; pages resync once it is back."""

from __future__ import annotations

import asyncio
import time

import pytest
from django.test import Client
from django.urls import reverse

from dotsboxes.games.models import Game
from dotsboxes.leases import acquire, release
from tests.games.conftest import wait_for
from tests.rooms.conftest import act, join, open_room
from tests.rooms.test_consumers import call, next_kind, own_loop, socket, version_of

pytestmark = pytest.mark.django_db(transaction=True)


def redis_cache(url: str) -> dict:
    return {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}}


def new_game_against_the_computer(client: Client) -> Game:
    data = {"mode": "computer", "size": "2x2", "side": "blue", "level": "beginner"}
    response = client.post(reverse("games:new"), data)
    assert response.status_code == 302
    return Game.objects.get(public_id=response["Location"].rstrip("/").rsplit("/", 1)[-1])


def test_a_database_lease_is_held_until_it_lapses_or_is_released():
    assert acquire("k", 30) and not acquire("k", 30)
    release("k")
    assert acquire("k", -1)  # taken, but already lapsed:
    assert acquire("k", 30)  # the next claimant gets it


def test_moves_against_the_computer_never_fail_while_redis_is_down(settings, own_redis):
    settings.CACHES = redis_cache(own_redis.url)
    client = Client()
    game = new_game_against_the_computer(client)
    own_redis.stop()  # the outage begins
    for edge in ("a1-b1", "a3-b3"):
        game.refresh_from_db()
        ply = game.moves.count()
        url = reverse("games:move", args=[game.public_id])
        data = {"edge": edge, "version": game.version}
        response = client.post(url, data, headers={"HX-Request": "true"})
        assert response.status_code == 200, (
            response.status_code,
            response.get("Location"),
            response.content[:300],
        )
        # The move counted, and the computer answered on a database lease.
        wait_for(lambda ply=ply: game.moves.count() >= ply + 2)
        assert game.moves.order_by("-ply").first().by_computer
    wait = reverse("games:wait", args=[game.public_id])
    poll = client.get(wait, {"version": 0}, headers={"HX-Request": "true"})
    assert poll.status_code == 200


@pytest.fixture
def pubsub_layer(settings, own_redis):
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": own_redis.url, "socket_timeout": 30}]},
        }
    }
    settings.ROOMS_LAYER_PROBE_SECONDS = 0.5
    channel_layers.backends.clear()
    yield own_redis
    channel_layers.backends.clear()


@own_loop
async def test_a_page_that_missed_pushes_during_an_outage_is_told_to_resync(pubsub_layer):
    alice, bob = Client(), Client()
    room = await call(open_room, alice)
    await call(join, bob, room)
    ws = socket(None, room)
    connected, _ = await ws.connect()
    assert connected
    try:
        start = version_of(await ws.receive_from(timeout=5))[0]
        pubsub_layer.stop()
        await asyncio.sleep(1.5)  # the probes notice
        assert (await call(act, alice, room, "move", edge="a1-b1")).status_code == 200
        pubsub_layer.start()
        back = time.monotonic()
        # Within 10 s of Redis's return the page hears the version it missed.
        while True:
            html = await ws.receive_from(timeout=max(0.1, 10 - (time.monotonic() - back)))
            version, kind = version_of(html)
            if version >= start + 1:
                break
        assert kind == "hello" and time.monotonic() - back < 10
        # And pushes flow again: Bob's move arrives as a push.
        assert (await call(act, bob, room, "move", edge="a3-b3")).status_code == 200
        html = await next_kind(ws, "game", timeout=5)
        assert version_of(html)[0] == start + 2
    finally:
        await ws.disconnect()
