"""Rate limits: a person at human speed never meets one; a flood does, with a clear 429."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from dotsboxes import throttle
from dotsboxes.asgi import application
from dotsboxes.games.models import Game
from dotsboxes.rooms.models import Message, Room
from tests.rooms.conftest import act, join, open_room
from tests.rooms.test_consumers import own_loop

pytestmark = pytest.mark.django_db
PASSWORD = "plenty-of-boxes-42"


def test_rates_are_read_from_settings_first(rate_limits):
    rate_limits.RATE_LIMITS = {"chat": ("2/10s", "3/10s")}
    assert throttle.rates("chat") == ("2/10s", "3/10s")
    assert throttle.hit("chat", "user:1", now=100.0) == 0
    assert throttle.hit("chat", "user:1", now=101.0) == 0
    assert throttle.hit("chat", "user:1", now=102.0) == 8  # the window ends at 110
    assert throttle.hit("chat", "user:1", now=110.0) == 0  # a new window


def test_the_address_limit_is_shared_and_looser_than_the_person_limit(rate_limits):
    rate_limits.RATE_LIMITS = {"chat": ("2/10s", "3/10s")}
    assert throttle.hit("chat", "user:1", "addr:1.2.3.4", now=0) == 0
    assert throttle.hit("chat", "user:2", "addr:1.2.3.4", now=0) == 0
    assert throttle.hit("chat", "user:3", "addr:1.2.3.4", now=0) == 0
    assert throttle.hit("chat", "user:4", "addr:1.2.3.4", now=0) > 0  # the address is full
    assert throttle.hit("chat", "user:4", "addr:5.6.7.8", now=0) == 0


def test_a_limit_fails_open_when_the_cache_is_down(rate_limits):
    rate_limits.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens there
        }
    }
    assert all(throttle.hit("chat", "user:1") == 0 for _ in range(20))


def test_a_human_speed_room_game_meets_no_limit_and_a_chat_flood_does(rate_limits):
    alice, bob = Client(), Client()
    room = open_room(alice)
    join(bob, room)
    # A lively player within one window: greets, offers a draw and takes it back...
    for text in ("Hello!", "Good luck", "Nice move", "Oops"):
        assert act(alice, room, "chat", text=text).status_code == 200
    assert act(alice, room, "offer", "draw").status_code == 200
    assert act(bob, room, "answer", "draw", answer="decline").status_code == 200
    assert act(alice, room, "move", edge="a1-b1").status_code == 200
    assert act(bob, room, "chat", text="Thanks").status_code == 200
    # ...then a script floods the chat: refused with 429 and a wait, and nothing stored.
    statuses = [act(alice, room, "chat", text=f"spam {i}").status_code for i in range(30)]
    assert statuses.count(200) == 1  # the fifth line of the window
    refused = act(alice, room, "chat", text="more spam")
    assert refused.status_code == 429
    assert "Please wait" in refused.content.decode()
    assert Message.objects.filter(kind=Message.Kind.CHAT, text__startswith="spam").count() == 1


def test_offer_floods_are_refused(rate_limits):
    alice, bob = Client(), Client()
    room = open_room(alice)
    join(bob, room)
    statuses = [act(alice, room, "offer", "draw").status_code for _ in range(10)]
    assert statuses[0] == 200 and set(statuses[1:6]) == {409}  # one offer pending at a time
    assert statuses[6:] == [429] * 4  # six tries a minute


def test_creating_rooms_and_games_against_the_computer_at_human_speed_then_a_flood(rate_limits):
    client = Client()
    for _ in range(3):
        open_room(client)
    data = {"mode": "computer", "size": "2x2", "side": "blue", "level": "beginner"}
    for _ in range(3):
        assert client.post(reverse("games:new"), data).status_code == 302
    flood = [client.post(reverse("games:new"), data).status_code for _ in range(30)]
    assert flood.count(302) == 17 and flood[-1] == 429  # 20 per 10 minutes per person
    page = client.post(reverse("games:new"), data)
    assert "Please wait" in page.content.decode() and page.status_code == 429
    assert Game.objects.filter(mode=Game.Mode.COMPUTER).count() == 20
    rooms = [
        client.post(
            reverse("rooms:create"),
            {
                "width": 2,
                "height": 2,
                "side": "blue",
                "timer": 0,
                "visibility": "public",
                "name": "A",
            },
        )
        for _ in range(10)
    ]
    # 10 per person: the first room was made before the browser had a session (its
    # address counted it), so 11 rooms in all.
    assert rooms[-1].status_code == 429 and Room.objects.count() == 11


def test_hints_at_human_speed_pass_and_a_flood_gets_429_on_htmx_and_plain_forms(rate_limits):
    client = Client()
    data = {"mode": "local", "size": "3x3"}
    game_url = client.post(reverse("games:new"), data)["Location"]
    public_id = game_url.rstrip("/").rsplit("/", 1)[-1]
    url = reverse("games:hint", args=[public_id])
    htmx = {"HX-Request": "true"}
    assert all(client.post(url, {"version": 0}, headers=htmx).status_code == 200 for _ in range(5))
    statuses = [client.post(url, {"version": 0}, headers=htmx).status_code for _ in range(40)]
    assert statuses.count(429) == 15
    refused = client.post(url, {"version": 0}, headers=htmx)
    assert refused.status_code == 429 and "Please wait" in refused.content.decode()
    plain = client.post(url, {"version": 0})
    assert plain.status_code == 429 and "Please wait" in plain.content.decode()
    assert plain["Retry-After"].isdigit()


def test_signups_count_only_accounts_made(rate_limits):
    client = Client()
    bad = {"username": "x", "password1": "a", "password2": "b"}
    for _ in range(8):  # mistakes are no flood
        assert client.post(reverse("accounts:signup"), bad).status_code == 200
    for i in range(20):  # 20 accounts an hour from one address (a club, a classroom)
        good = {"username": f"p{i}", "password1": PASSWORD, "password2": PASSWORD}
        assert Client().post(reverse("accounts:signup"), good).status_code == 302
    more = {"username": "p99", "password1": PASSWORD, "password2": PASSWORD}
    refused = Client().post(reverse("accounts:signup"), more)
    assert refused.status_code == 429 and "Please wait" in refused.content.decode()
    assert get_user_model().objects.count() == 20


@own_loop
async def test_a_handshake_flood_is_closed_with_4429(rate_limits):
    rate_limits.RATE_LIMITS = {"socket": ("5/m", "5/m")}
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    codes = []
    for _ in range(8):
        ws = WebsocketCommunicator(application, "/ws/rooms/", headers=headers)
        connected, code = await ws.connect(timeout=5)
        codes.append("open" if connected else code)
        if connected:
            await ws.disconnect()
    assert codes[:5] == ["open"] * 5
    assert codes[5:] == [4429] * 3


@pytest.mark.django_db(transaction=True)
def test_starting_game_reviews_is_limited_but_polling_one_is_not(rate_limits):
    from tests.guide.test_from_game import finished_game

    rate_limits.RATE_LIMITS = {
        "analysis": ("2/10m", "2/10m")
    }  # a visitor without a session: by address
    client = Client()
    first, second, third = (finished_game() for _ in range(3))
    url = lambda game: reverse("guide:from_game", args=[game.public_id])  # noqa: E731
    for _ in range(5):  # the pending page reloads itself: one review, counted once
        assert client.get(url(first)).status_code == 200
    assert client.get(url(second)).status_code == 200
    refused = client.get(url(third))
    assert refused.status_code == 429 and "Please wait" in refused.content.decode()
