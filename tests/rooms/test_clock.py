"""The room clock: timed-out turns, stand-ins for absent players, stale sockets."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.utils import timezone

from dotsboxes.games.models import Game
from dotsboxes.rooms import presence, ticker
from dotsboxes.rooms.identity import viewer_from_scope
from dotsboxes.rooms.models import Connection, Message, Room, ServerBeat
from dotsboxes.rooms.presenters import line_text
from tests.rooms.conftest import act, fresh, join, open_room


@pytest.fixture
def timed(db, alice, bob):
    """A 3 x 3 boxes room with a 30 s turn timer, both seats taken."""
    room = open_room(alice, timer=30, width=3, height=3)
    join(bob, room)
    return fresh(room)


def test_taking_the_seat_starts_the_turn_clock(timed):
    left = (timed.turn_deadline - timezone.now()).total_seconds()
    assert 28 < left <= 30


def test_each_edge_restarts_the_clock_for_the_side_to_move(timed, alice):
    Room.objects.filter(pk=timed.pk).update(turn_deadline=timezone.now() + timedelta(seconds=3))
    act(alice, timed, "move", edge="a1-b1")
    assert (fresh(timed).turn_deadline - timezone.now()).total_seconds() > 28


def test_when_time_runs_out_the_computer_finishes_the_turn_exactly_once(timed):
    Room.objects.filter(pk=timed.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    version = timed.game.version
    ticker.tick()
    room = fresh(timed)
    drawn = list(room.game.moves.values_list("side", "by_computer"))
    assert drawn and all(side == "blue" and computer for side, computer in drawn)
    assert room.to_move == "red" and room.game.version == version + 1
    assert (room.turn_deadline - timezone.now()).total_seconds() > 28
    line = Message.objects.filter(room=room, kind="system").last()
    assert line_text(line).startswith("Time ran out for Alice: the computer drew ")
    ticker.tick()  # nothing is due any more: nothing else happens
    assert fresh(timed).game.version == version + 1


@pytest.mark.django_db(transaction=True)
def test_two_clocks_racing_for_the_same_timeout_play_it_once(timed, django_db_blocker):
    if connection.vendor == "sqlite":
        pytest.skip("SQLite serialises writers; the row-lock race needs PostgreSQL")
    Room.objects.filter(pk=timed.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    barrier = threading.Barrier(2)

    def run():
        with django_db_blocker.unblock():
            barrier.wait()
            ticker.tick()
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert fresh(timed).game.version == timed.game.version + 1


def test_a_finished_game_has_no_clock(timed, alice):
    act(alice, timed, "resign")
    assert fresh(timed).turn_deadline is None
    assert ticker.due_rooms(timezone.now() + timedelta(hours=1)) == []


def test_an_absent_player_is_stood_in_for_after_the_countdown(room, alice, bob):
    act(alice, room, "move", edge="a1-b1")  # Red (Bob) to move
    Connection.objects.create(
        room=room, channel_name="bob-tab", side="red", viewer_key="b", server=presence.SERVER_ID
    )
    presence.connection_close(channel_name="bob-tab")
    room = fresh(room)
    assert room.red_away_deadline is not None and not room.red_standin
    ticker.tick()  # countdown still running: nothing happens
    assert fresh(room).game.moves.count() == 1
    Room.objects.filter(pk=room.pk).update(red_away_deadline=timezone.now() - timedelta(seconds=1))
    ticker.tick()
    room = fresh(room)
    assert room.red_standin and room.red_away_deadline is None
    assert room.to_move == "blue"
    red = room.game.moves.filter(side="red")
    assert red.exists() and all(red.values_list("by_computer", flat=True))
    texts = [line_text(m) for m in room.messages.filter(kind="system")]
    assert any("the computer plays for them" in t for t in texts)
    assert any("who is away" in t for t in texts)
    # Blue moves a safe edge; the stand-in answers on the next tick.
    before = red.count()
    act(alice, room, "move", edge="a3-b3" if "a3-b3" not in _drawn(room) else "b3-c3")
    assert fresh(room).to_move == "red"
    ticker.tick()
    room = fresh(room)
    assert room.game.moves.filter(side="red").count() > before
    assert room.to_move == "blue" or room.game.status != Game.Status.ACTIVE


def _drawn(room: Room) -> list[str]:
    return list(room.game.moves.values_list("edge", flat=True))


def test_coming_back_hands_the_seat_back_to_the_player(room, bob):
    Room.objects.filter(pk=room.pk).update(red_standin=True)
    viewer = viewer_from_scope({"session": bob.session, "user": AnonymousUser()}, "bob-2")
    presence.connection_open(public_id=room.game.public_id, channel_name="bob-2", viewer=viewer)
    room = fresh(room)
    assert not room.red_standin and room.red_away_deadline is None
    assert any("is back" in line_text(m) for m in room.messages.filter(kind="system"))


def test_sockets_of_a_server_that_stopped_beating_are_purged(room):
    ServerBeat.objects.create(server="dead-1", last_seen=timezone.now() - timedelta(minutes=5))
    Connection.objects.create(
        room=room, channel_name="ghost", side="red", viewer_key="b", server="dead-1"
    )
    presence.beat()
    Connection.objects.create(
        room=room, channel_name="alive", side="blue", viewer_key="a", server=presence.SERVER_ID
    )
    assert presence.purge_stale_servers() == 1
    assert list(Connection.objects.values_list("channel_name", flat=True)) == ["alive"]
    assert not ServerBeat.objects.filter(server="dead-1").exists()
    room = fresh(room)
    assert room.red_away_deadline is not None and room.blue_away_deadline is None
