"""Vacation days: a correspondence deadline that passes spends a day of the player's
allowance (one per calendar day, covering all their games) instead of ending the game."""

from __future__ import annotations

import threading
from datetime import datetime, time, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.utils import timezone

from dotsboxes import clock
from dotsboxes.api.models import BotAccount
from dotsboxes.rooms import ticker, vacation
from dotsboxes.rooms.models import Room, VacationChoice, VacationDay
from dotsboxes.rooms.presenters import line_text
from tests.rooms.conftest import act, fresh, join, open_room, signed_in

DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def _movable_clock(settings, tmp_path):
    settings.CLOCK_OFFSET_FILE = str(tmp_path / "clock-offset")
    settings.VACATION_DAYS_PER_YEAR = 14


def bobs_turn(alice: Client, bob: Client) -> Room:
    """A 3 x 3 boxes game at 2 days a move, Alice's edge drawn: Bob (Red) to move."""
    room = open_room(alice, timer=2 * 86400, width=3, height=3, rated="on")
    assert join(bob, room).status_code == 302
    act(alice, room, "move", edge="a1-b1")
    return fresh(room)


def set_deadline(room: Room, when: datetime) -> None:
    Room.objects.filter(pk=room.pk).update(turn_deadline=when)


@pytest.fixture
def noon_in(_movable_clock):
    """Noon (UTC, the site's zone) some days after 10 January next year, the clock moved
    there first: deadlines on known calendar days, in one year, whatever the date and hour
    the test runs."""
    start = datetime(clock.now().year + 1, 1, 10, 8, tzinfo=timezone.get_current_timezone())
    clock.advance(start - clock.now())

    def noon_in(days: int) -> datetime:
        return datetime.combine(start.date() + timedelta(days=days), time(12), start.tzinfo)

    return noon_in


def advance_to(when: datetime) -> None:
    clock.advance(when - clock.now())


def lines(room: Room) -> list[str]:
    return [line_text(m) for m in room.messages.filter(kind="system")]


@pytest.fixture
def game(db):
    alice, bob = signed_in("alice"), signed_in("bob")
    room = bobs_turn(alice, bob)
    return room, alice, bob, get_user_model().objects.get(username="bob")


def test_a_player_with_days_left_keeps_the_game_and_the_deadline_moves_a_day(game):
    room, alice, _bob, bob_user = game
    deadline, version = room.turn_deadline, room.game.version
    clock.advance(2 * DAY + timedelta(seconds=1))
    ticker.tick()
    room = fresh(room)
    assert room.game.is_active and room.turn_deadline == deadline + DAY
    assert room.game.version == version + 1  # the open pages get the new deadline
    assert list(room.game.moves.values_list("by_computer", flat=True)) == [False]
    assert VacationDay.objects.filter(user=bob_user).count() == 1
    assert (
        "Time ran out for bob, who is on vacation: one more day to move "
        "(vacation days left this year: 13)." in lines(room)
    )
    assert "who is on vacation" in alice.get(room.get_absolute_url()).content.decode()
    ticker.tick()  # covered: nothing more is due today
    assert fresh(room).game.version == version + 1
    assert VacationDay.objects.filter(user=bob_user).count() == 1


def test_the_days_count_down_and_with_none_left_the_game_is_lost_on_time(game, settings, noon_in):
    settings.VACATION_DAYS_PER_YEAR = 2
    room, _alice, bob, bob_user = game
    set_deadline(room, noon_in(1))
    left = []
    for days in (1, 2):
        advance_to(noon_in(days) + timedelta(seconds=1))
        assert ticker._lose_on_time(room.pk) == "vacation"
        assert fresh(room).turn_deadline == noon_in(days + 1)
        left.append(vacation.days_left(bob_user.pk))
    assert left == [1, 0]
    page = bob.get("/notifications/").content.decode()
    assert "Vacation days left this year: 0 of 2" in page
    advance_to(fresh(room).turn_deadline + timedelta(seconds=1))
    assert ticker._lose_on_time(room.pk) == "red"
    game = fresh(room).game
    assert (game.status, game.result, game.termination) == ("finished", "blue", "time")
    assert "Time ran out for bob: Blue wins on time." in lines(fresh(room))


def test_one_day_covers_all_the_players_games_whose_time_runs_out_that_day(db, noon_in):
    alice, bob = signed_in("alice"), signed_in("bob")
    bob_user = get_user_model().objects.get(username="bob")
    rooms = [bobs_turn(alice, bob) for _ in range(3)]
    set_deadline(rooms[0], noon_in(2))
    set_deadline(rooms[1], noon_in(2) + timedelta(hours=3))
    set_deadline(rooms[2], noon_in(3) - timedelta(hours=1))  # 11:00 the next day
    advance_to(noon_in(2) + timedelta(hours=4))
    ticker.tick()
    assert [d.day for d in VacationDay.objects.filter(user=bob_user)] == [noon_in(2).date()]
    assert all(fresh(r).game.is_active for r in rooms)
    advance_to(noon_in(3))
    ticker.tick()  # the third game's time ran out the next day: a second day
    days = list(VacationDay.objects.filter(user=bob_user).values_list("day", flat=True))
    assert days == [noon_in(2).date(), noon_in(3).date()]
    # The first two games' new deadlines pass on that next day too: no third day.
    advance_to(noon_in(3) + timedelta(hours=4))
    ticker.tick()
    assert VacationDay.objects.filter(user=bob_user).count() == 2
    assert [fresh(r).turn_deadline for r in rooms] == [
        noon_in(4),
        noon_in(4) + timedelta(hours=3),
        noon_in(4) - timedelta(hours=1),
    ]


def test_a_clock_that_was_down_counts_the_days_of_absence_not_its_own_pass(game, noon_in):
    room, _alice, _bob, bob_user = game
    set_deadline(room, noon_in(1))
    advance_to(noon_in(3) + timedelta(hours=1))  # no clock ran for two days
    for _ in range(4):
        ticker.tick()
    assert fresh(room).turn_deadline == noon_in(4)
    days = list(VacationDay.objects.filter(user=bob_user).values_list("day", flat=True))
    assert days == [noon_in(1).date(), noon_in(2).date(), noon_in(3).date()]


def test_a_player_who_switched_vacation_off_loses_on_time(game):
    room, _alice, bob, bob_user = game
    page = bob.get("/notifications/").content.decode()
    assert "Vacation days left this year: 14 of 14" in page and 'name="auto"' in page
    assert bob.post("/notifications/vacation", {}).status_code == 302  # the box unticked
    assert VacationChoice.objects.get(user=bob_user).auto is False
    clock.advance(2 * DAY + timedelta(seconds=1))
    assert ticker._lose_on_time(room.pk) == "red"
    assert not VacationDay.objects.exists()
    bob.post("/notifications/vacation", {"auto": "on"})
    assert VacationChoice.objects.get(user=bob_user).auto is True


def test_switching_vacation_needs_the_csrf_token_and_a_sign_in(game, client):
    _room, _alice, _bob, bob_user = game
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(bob_user)
    assert strict.post("/notifications/vacation", {}).status_code == 403
    assert client.post("/notifications/vacation", {}).status_code == 302  # to sign in
    assert not VacationChoice.objects.exists()


def test_a_bot_account_gets_no_vacation_days(game):
    room, _alice, _bob, bob_user = game
    BotAccount.objects.create(user=bob_user)
    clock.advance(2 * DAY + timedelta(seconds=1))
    assert ticker._lose_on_time(room.pk) == "red"
    assert not VacationDay.objects.exists()


def test_the_setting_zero_restores_plain_loss_on_time(game, settings):
    settings.VACATION_DAYS_PER_YEAR = 0
    room, _alice, bob, _bob_user = game
    assert "Vacation days left" not in bob.get("/notifications/").content.decode()
    clock.advance(2 * DAY + timedelta(seconds=1))
    ticker.tick()
    assert fresh(room).game.termination == "time"
    assert not VacationDay.objects.exists()


def race(*calls) -> list[str]:
    """Run the calls at once, each in its own thread and database connection."""
    barrier, out = threading.Barrier(len(calls)), []

    def run(call):
        barrier.wait()
        out.append(call())
        connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(out)


@pytest.mark.django_db(transaction=True)
def test_two_clocks_racing_for_the_same_deadline_spend_one_day_once(django_db_blocker):
    alice, bob = signed_in("alice"), signed_in("bob")
    room = bobs_turn(alice, bob)
    deadline, version = room.turn_deadline, room.game.version
    clock.advance(2 * DAY + timedelta(seconds=1))
    with django_db_blocker.unblock():
        outcomes = race(
            lambda: ticker._lose_on_time(room.pk), lambda: ticker._lose_on_time(room.pk)
        )
    assert outcomes == ["", "vacation"]  # one clock spent the day, the other found nothing due
    room = fresh(room)
    assert room.turn_deadline == deadline + DAY and room.game.version == version + 1
    assert VacationDay.objects.count() == 1
    assert sum("who is on vacation" in line for line in lines(room)) == 1


@pytest.mark.django_db(transaction=True)
def test_two_clocks_on_two_games_never_spend_more_days_than_are_left(
    django_db_blocker, settings, noon_in
):
    settings.VACATION_DAYS_PER_YEAR = 1
    alice, bob = signed_in("alice"), signed_in("bob")
    first, second = bobs_turn(alice, bob), bobs_turn(alice, bob)
    set_deadline(first, noon_in(1))
    set_deadline(second, noon_in(2))  # another day: each would need its own vacation day
    advance_to(noon_in(2) + timedelta(hours=1))
    with django_db_blocker.unblock():
        outcomes = race(
            lambda: ticker._lose_on_time(first.pk), lambda: ticker._lose_on_time(second.pk)
        )
    assert outcomes == ["red", "vacation"]  # the one day left went to one game only
    assert VacationDay.objects.count() == 1
