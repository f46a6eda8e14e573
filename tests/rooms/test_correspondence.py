"""Correspondence rooms: days per move, rated, lost on time (never played by the computer)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client

from dotsboxes import clock
from dotsboxes.accounts.models import RatingChange
from dotsboxes.games.models import Game
from dotsboxes.rooms import presence, ticker
from dotsboxes.rooms.models import Connection, Room
from dotsboxes.rooms.presenters import line_text
from tests.rooms.conftest import act, fresh, join, open_room, signed_in

DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def _movable_clock(settings, tmp_path):
    settings.CLOCK_OFFSET_FILE = str(tmp_path / "clock-offset")
    # Plain loss on time; vacation days that postpone it are tested in test_vacation.py.
    settings.VACATION_DAYS_PER_YEAR = 0


@pytest.fixture
def corr(db) -> tuple[Room, Client, Client]:
    """Alice (Blue) and Bob in a rated 3 x 3 game at 2 days a move."""
    alice, bob = signed_in("alice"), signed_in("bob")
    room = open_room(alice, timer=2 * 86400, width=3, height=3, rated="on")
    assert join(bob, room).status_code == 302
    return fresh(room), alice, bob


def test_taking_the_seat_gives_the_side_to_move_two_days(corr):
    room, _alice, _bob = corr
    assert room.is_correspondence and room.game.rated
    left = room.turn_deadline - clock.now()
    assert 2 * DAY - timedelta(seconds=5) < left <= 2 * DAY


def test_the_room_page_says_the_time_left_in_words(corr):
    room, alice, _bob = corr
    page = alice.get(room.get_absolute_url()).content.decode().replace("\xa0", " ")
    assert "2 days a move" in page
    assert "1 day, 23 hours left to move" in page or "2 days left to move" in page


def test_an_anonymous_visitor_cannot_open_or_join_a_correspondence_game(db, client, corr):
    response = client.post(
        "/rooms/new",
        {
            "width": 2,
            "height": 2,
            "side": "blue",
            "timer": 86400,
            "visibility": "public",
            "name": "Eve",
        },
    )
    assert response.status_code == 403
    _room, _alice, _bob = corr
    assert Room.objects.count() == 1


def test_when_the_days_run_out_the_side_to_move_loses_on_time_and_nothing_is_drawn(corr):
    room, alice, _bob = corr
    act(alice, room, "move", edge="a1-b1")  # Bob (Red) to move
    ticker.tick()
    assert fresh(room).game.is_active  # two days left: nothing happens
    clock.advance(2 * DAY + timedelta(seconds=1))
    ticker.tick()
    room = fresh(room)
    game = room.game
    assert (game.status, game.result, game.termination) == ("finished", "blue", "time")
    assert list(game.moves.values_list("by_computer", flat=True)) == [False]  # only Alice's edge
    assert room.turn_deadline is None
    assert RatingChange.objects.filter(game=game).count() == 2
    lines = [line_text(m) for m in room.messages.filter(kind="system")]
    assert "Time ran out for bob: Blue wins on time." in lines
    page = alice.get(room.get_absolute_url()).content.decode()
    assert "wins on time" in page
    version = game.version
    ticker.tick()  # nothing is due any more
    assert fresh(room).game.version == version


def test_a_move_in_time_restarts_the_days(corr):
    room, alice, _bob = corr
    clock.advance(DAY + timedelta(hours=23))
    act(alice, room, "move", edge="a1-b1")
    assert fresh(room).turn_deadline - clock.now() > 2 * DAY - timedelta(seconds=5)
    clock.advance(DAY)
    ticker.tick()
    assert fresh(room).game.is_active


def test_a_player_who_leaves_is_not_stood_in_for(corr):
    room, _alice, _bob = corr
    Connection.objects.create(
        room=room, channel_name="alice-tab", side="blue", viewer_key="a", server=presence.SERVER_ID
    )
    presence.connection_close(channel_name="alice-tab")
    room = fresh(room)
    assert room.blue_away_deadline is None and not room.blue_standin


def test_a_player_can_have_many_correspondence_games_at_once(db):
    alice, bob = signed_in("alice"), signed_in("bob")
    for _ in range(3):
        join(bob, open_room(alice, timer=86400, width=2, height=2))
    active = Game.objects.filter(status="active", room__timer_seconds=86400)
    assert active.count() == 3 and all(g.red_user_id for g in active)


@pytest.mark.django_db(transaction=True)
def test_two_clocks_racing_for_the_same_deadline_end_the_game_once(django_db_blocker, settings):
    alice, bob = signed_in("alice"), signed_in("bob")
    room = open_room(alice, timer=86400, width=2, height=2, rated="on")
    join(bob, room)
    clock.advance(DAY + timedelta(seconds=1))
    version = fresh(room).game.version
    barrier = threading.Barrier(2)
    lost = []

    def run():
        with django_db_blocker.unblock():
            barrier.wait()
            lost.append(ticker._lose_on_time(room.pk))
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    game = fresh(room).game
    assert sorted(lost) == ["", "blue"]  # one clock ended it, the other found nothing due
    assert game.version == version + 1 and game.termination == "time"
    assert RatingChange.objects.filter(game=game).count() == 2
    lines = [line_text(m) for m in fresh(room).messages.filter(kind="system")]
    assert sum(line.startswith("Time ran out") for line in lines) == 1
