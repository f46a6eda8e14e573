"""Fixtures for the bot API: a person (alice), a bot (alphabot) with a token, their clients."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from dotsboxes.api import services, tokens


@pytest.fixture(autouse=True)
def _room_clock_off(settings):
    settings.ROOMS_TICKER = "off"
    settings.API_POLL_SECONDS = 0.01


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", password="a long passphrase 42")


@pytest.fixture
def alphabot(db):
    user = get_user_model().objects.create_user("alphabot", password="a long passphrase 42")
    services.bot_account_create(user=user)
    return user


@pytest.fixture
def betabot(db):
    user = get_user_model().objects.create_user("betabot", password="a long passphrase 42")
    services.bot_account_create(user=user)
    return user


class ApiClient:
    """A test client that sends a bearer token and JSON."""

    def __init__(self, token: str) -> None:
        self.client = Client()
        self.token = token

    def _headers(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def get(self, path: str):
        return self.client.get(path, headers=self._headers())

    def post(self, path: str, data: dict | None = None):
        return self.client.post(
            path,
            json.dumps(data or {}),
            content_type="application/json",
            headers=self._headers(),
        )


@pytest.fixture
def bot_api(alphabot):
    _row, token = tokens.token_create(user=alphabot, name="test")
    return ApiClient(token)


@pytest.fixture
def beta_api(betabot):
    _row, token = tokens.token_create(user=betabot)
    return ApiClient(token)


@pytest.fixture
def challenge(alice, alphabot):
    """Alice challenges alphabot to a 2 x 2 game as Blue, unrated."""
    return services.challenge_create(
        challenger=alice, target=alphabot, width=2, height=2, side="blue"
    )


@pytest.fixture
def game_id(bot_api, challenge):
    """The room the accepted challenge opened: alice Blue (to move), alphabot Red."""
    response = bot_api.post(f"/api/challenge/{challenge.pk}/accept")
    assert response.status_code == 200, response.content
    return response.json()["game"]["id"]
