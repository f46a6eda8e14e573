"""Players with something of everything: games over and under way, a tournament,
a challenge, tokens, notices, and a session."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from dotsboxes import clock
from dotsboxes.accounts.models import Profile, Rating
from dotsboxes.api import services as api
from dotsboxes.api import tokens
from dotsboxes.games.models import Game
from dotsboxes.tournaments import services as tournaments
from tests.gamefactory import played_game
from tests.rooms.conftest import join, open_room

PASSWORD = "plenty-of-boxes-42"


@pytest.fixture(autouse=True)
def _quiet(settings):
    settings.ROOMS_TICKER = "off"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.ANALYSIS_AUTO = False


def person(name: str, *, email: str = "") -> tuple[object, Client]:
    user = get_user_model().objects.create_user(name, password=PASSWORD, email=email)
    Profile.objects.create(user=user, email_verified=bool(email), language="en")
    Rating.objects.create(user=user)
    client = Client()
    client.force_login(user)
    return user, client


def finished(blue, red, *, seed: int = 0, rated: bool = True) -> Game:
    return played_game(
        width=2,
        height=2,
        seed=seed,
        mode=Game.Mode.ONLINE,
        rated=rated,
        blue_user=blue,
        red_user=red,
        blue_name=blue.username,
        red_name=red.username,
    )


@pytest.fixture
def world(db):
    alice, alice_client = person("alice", email="alice@example.com")
    bob, bob_client = person("bob", email="bob-private@example.com")
    over = finished(alice, bob)  # rated: both have a rating history
    # Under way: a room with both seated, and a room of Alice's waiting for an opponent.
    playing = open_room(alice_client, name="alice")
    join(bob_client, playing, name="bob")
    waiting = open_room(alice_client, name="alice")
    # A tournament both are in, a challenge to a bot, tokens, a notice.
    cup = tournaments.tournament_create(
        user=bob,
        name="Winter cup",
        kind="arena",
        starts_at=clock.now() + timedelta(hours=1),
        duration_minutes=30,
    )
    tournaments.tournament_join(tournament_id=cup.pk, user=alice)
    tournaments.tournament_join(tournament_id=cup.pk, user=bob)
    bot = get_user_model().objects.create_user("alphabot", password=PASSWORD)
    api.bot_account_create(user=bot)
    challenge = api.challenge_create(challenger=alice, target=bot, width=2, height=2, side="blue")
    _row, alice_token = tokens.token_create(user=alice, name="mine")
    _row, bob_token = tokens.token_create(user=bob, name="bob's")
    return {
        "alice": alice,
        "alice_client": alice_client,
        "bob": bob,
        "bob_client": bob_client,
        "over": over,
        "playing": playing,
        "waiting": waiting,
        "cup": cup,
        "challenge": challenge,
        "alice_token": alice_token,
        "bob_token": bob_token,
    }
