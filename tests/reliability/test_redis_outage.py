"""Games against the computer go on while Redis is down; pages resync once it is back."""

from __future__ import annotations

import asyncio
import time

import pytest
from django.test import Client
from django.urls import reverse

from dotsboxes.games.models import Game
from dotsboxes.leases.database import acquire, release
from dotsboxes.settings import redis_channel_host
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
    for wanted in ("a1-b1", "a3-b3"):
        game.refresh_from_db()
        ply = game.moves.count()
        # The computer's reply depends on a seed made from the game's database id:
        # for some ids (the 15th game of a run, say) it drew a3-b3 itself, so the
        # second move was refused (a 200 panel with a message) and nothing answered.
        legal = [str(edge) for edge in game.board().legal_moves]
        edge = wanted if wanted in legal else legal[0]
        url = reverse("games:move", args=[game.public_id])
        data = {"edge": edge, "version": game.version}
        response = client.post(url, data, headers={"HX-Request": "true"})
        assert response.status_code == 200, (
            response.status_code,
            response.get("Location"),
            response.content[:300],
        )
        # The move counted, and the computer answered on a database lease.
        assert game.moves.filter(ply=ply + 1, edge=edge, by_computer=False).exists()
        wait_for(lambda ply=ply: game.moves.count() >= ply + 2)
        assert game.moves.order_by("-ply").first().by_computer
    wait = reverse("games:wait", args=[game.public_id])
    poll = client.get(wait, {"version": 0}, headers={"HX-Request": "true"})
    assert poll.status_code == 200


def thinking_game() -> Game:
    """A game whose computer thinks for seconds: its commit starts the job."""
    from dotsboxes.games import services
    from dotsboxes.games.models import Side
    from tests.games.conftest import ALICE
    from tests.games.test_computer import SLOW

    game = services.game_create(
        actor=ALICE,
        mode=Game.Mode.COMPUTER,
        start_key=SLOW,
        computer_side=Side.BLUE,
        computer_level="master",
    )
    game.refresh_from_db()
    return game


def test_a_position_claimed_in_the_database_is_not_started_again_when_redis_returns(
    settings, own_redis
):
    # The claim taken in the database during the outage was invisible to the cache:
    # once Redis was back, the next page poll started a second job on the same
    # position, and the first job's database lease was no longer renewed.
    from dotsboxes.games import computer

    settings.CACHES = redis_cache(own_redis.url)
    own_redis.stop()
    game = thinking_game()
    own_redis.start()  # back, and empty, while the job thinks
    assert not game.moves.exists(), "the engine answered at once: use a slower position"
    assert computer.ensure(game, game.board()) is None
    assert computer.start(game) is None
    wait_for(lambda: game.moves.exists(), timeout=30)
    assert game.moves.count() == 1


def test_a_position_claimed_in_redis_is_not_started_again_when_redis_goes_down(settings, own_redis):
    # The other way round: the claim was in Redis when it went down (and a killed
    # Redis forgets it); the next poll took a database lease for the same position.
    from dotsboxes.games import computer

    settings.CACHES = redis_cache(own_redis.url)
    game = thinking_game()
    own_redis.stop()
    assert not game.moves.exists(), "the engine answered at once: use a slower position"
    assert computer.ensure(game, game.board()) is None
    wait_for(lambda: game.moves.exists(), timeout=30)
    assert game.moves.count() == 1


def test_a_database_claim_of_another_server_stands_once_redis_is_back(settings, own_redis):
    from django.core.cache import cache

    from dotsboxes.games import computer, services
    from dotsboxes.games import jobs as game_jobs
    from dotsboxes.games.models import Side
    from tests.games.conftest import ALICE, play

    settings.CACHES = redis_cache(own_redis.url)
    game = services.game_create(
        actor=ALICE, mode=Game.Mode.COMPUTER, width=2, height=2, computer_side=Side.RED
    )
    # During the outage another server claimed the computer's reply in the database
    # and still renews it; Redis is back (and knows nothing of it).
    key = game_jobs.claim_key(game.public_id, game.version + 1)
    assert acquire(key, 30)
    game = play(game, "a1-b1")  # its commit asks for the computer
    assert computer.ensure(game, game.board()) is None
    assert cache.get(key) is None  # this server took no claim in Redis either
    assert game.moves.count() == 1
    release(key)  # that server's job ended (or it died and the lease lapsed)
    wait_for(lambda: computer.ensure(game, game.board()))
    wait_for(lambda: game.moves.count() == 2)


@pytest.fixture
def pubsub_layer(settings, own_redis):
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [redis_channel_host(own_redis.url)]},
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


@own_loop
async def test_every_outage_of_several_in_a_row_ends_with_the_page_back_in_sync(
    pubsub_layer, settings
):
    # Reconnecting after an outage, channels-redis's receive task and a subscribe can
    # both connect the one pub/sub connection at once, which wedged it (every later
    # subscribe: "readuntil() called while another coroutine is already waiting"):
    # that server's pages heard nothing again.  Here it did at the second outage.
    # The product's probe period: a retry of the receive task comes each second too.
    settings.ROOMS_LAYER_PROBE_SECONDS = 1.0
    alice, bob = Client(), Client()
    room = await call(open_room, alice, width=5, height=5)
    await call(join, bob, room)
    ws = socket(None, room)
    assert (await ws.connect())[0]
    # Top sides of rows 1, 3 and 5 of boxes: no box is ever closed, so turns alternate.
    edges = [f"{a}{row}-{b}{row}" for row in (1, 3, 5) for a, b in zip("abcd", "bcde", strict=True)]
    try:
        version = version_of(await ws.receive_from(timeout=5))[0]
        for outage, edge in enumerate(edges[:4]):
            pubsub_layer.stop()
            await asyncio.sleep(1.2)  # the probes notice
            mover = alice if outage % 2 == 0 else bob
            assert (await call(act, mover, room, "move", edge=edge)).status_code == 200
            version += 1
            pubsub_layer.start()
            back = time.monotonic()
            heard = -1
            try:
                while heard < version:
                    left = max(0.1, 10 - (time.monotonic() - back))
                    heard = version_of(await ws.receive_from(timeout=left))[0]
            except TimeoutError:
                pytest.fail(f"outage {outage + 1}: no version {version} within 10 s")
    finally:
        await ws.disconnect()


def test_a_report_sent_while_redis_is_down_is_stored(settings, own_redis):
    # The report limit counted in the cache by hand, so the outage answered 500.
    from dotsboxes.reports.models import Report
    from tests.gamefactory import played_game

    settings.CACHES = redis_cache(own_redis.url)
    settings.RATE_LIMITS_ENABLED = True
    game = played_game(width=3, height=2, seed=4)
    own_redis.stop()
    url = f"{reverse('reports:new')}?game={game.public_id}"
    response = Client().post(url, {"category": "rules", "text": "The last box went to Red."})
    assert response.status_code == 302
    assert Report.objects.count() == 1


def test_the_analysis_board_answers_while_redis_is_down_and_works_once_it_is_back(
    settings, own_redis
):
    # Its values and the one-job-per-visitor claim live in the cache: the page
    # answered 500 throughout an outage.
    settings.CACHES = redis_cache(own_redis.url)
    client = Client()
    url = reverse("analysis:board") + "?size=2x1"
    own_redis.stop()
    for _ in range(3):  # the page's own refreshes
        page = client.get(url)
        assert page.status_code == 200
        assert 'data-state="busy"' in page.content.decode()
    own_redis.start()
    deadline = time.monotonic() + 60
    while 'data-state="final"' not in client.get(url).content.decode():
        assert time.monotonic() < deadline, "no values after Redis came back"
        time.sleep(0.2)
