"""Fixtures for tournaments: players with accounts, a movable clock, games to play."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from dotsboxes.games.models import Game
from dotsboxes.rooms import offers
from dotsboxes.rooms import services as rooms
from dotsboxes.rooms.identity import Viewer


@pytest.fixture(autouse=True)
def _room_clock_off(settings, tmp_path):
    # Tests drive the clock (services.tournament_tick, ticker.tick) themselves.
    settings.ROOMS_TICKER = "off"
    settings.CLOCK_OFFSET_FILE = str(tmp_path / "clock-offset")


@pytest.fixture(autouse=True)
def _english():
    # A request in another language leaves it active in this thread; the services'
    # messages are read here in English.
    with translation.override("en"):
        yield


def make_players(*names: str) -> list:
    User = get_user_model()
    return [User.objects.create_user(name, password="pw-" + name) for name in names]


def viewer(user) -> Viewer:
    return Viewer(user.pk, "", user.username, f"u:{user.pk}")


def resign(game: Game, loser) -> None:
    """``loser`` gives the game up through the rooms' own command."""
    game.refresh_from_db()
    rooms.room_resign(public_id=game.public_id, viewer=viewer(loser), version=game.version)


def agree_draw(game: Game) -> None:
    game.refresh_from_db()
    blue, red = game.blue_user, game.red_user
    offers.room_offer(
        public_id=game.public_id, viewer=viewer(blue), kind="draw", version=game.version
    )
    game.refresh_from_db()
    offers.room_answer(
        public_id=game.public_id, viewer=viewer(red), kind="draw", accept=True, version=game.version
    )
