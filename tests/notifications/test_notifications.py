"""Your turn, notices and their mail for correspondence games."""
# ruff: noqa: RUF001 - the pages use real typography (multiplication sign) and Chinese full-width punctuation.

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from dotsboxes import clock
from dotsboxes.accounts.models import Profile
from dotsboxes.notifications import services
from dotsboxes.notifications.models import Notification, Preferences
from dotsboxes.rooms import ticker
from dotsboxes.rooms.models import Room
from tests.rooms.conftest import act, join, open_room

DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def _movable_clock(settings, tmp_path):
    settings.CLOCK_OFFSET_FILE = str(tmp_path / "clock-offset")
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.NOTIFY_EVERY_SECONDS = 0  # every clock pass looks (tests drive the clock)


def player(name: str, *, verified: bool = True) -> tuple[Client, object]:
    user = get_user_model().objects.create_user(name, email=f"{name}@example.com")
    Profile.objects.create(user=user, email_verified=verified)
    client = Client()
    client.force_login(user)
    return client, user


@pytest.fixture
def two(db, django_capture_on_commit_callbacks):
    alice, alice_user = player("alice")
    bob, bob_user = player("bob")
    with django_capture_on_commit_callbacks(execute=True):
        room = open_room(alice, timer=3 * 86400, width=3, height=3)
        join(bob, room)
    return Room.objects.select_related("game").get(pk=room.pk), alice, alice_user, bob, bob_user


def test_your_turn_lists_the_games_where_the_player_is_to_move(
    two, django_capture_on_commit_callbacks
):
    room, alice, alice_user, bob, bob_user = two
    assert [t.room.pk for t in services.your_turn(alice_user.pk)] == [room.pk]
    assert services.your_turn(bob_user.pk) == []
    with django_capture_on_commit_callbacks(execute=True):
        act(alice, room, "move", edge="a1-b1")
    assert services.your_turn(alice_user.pk) == []
    (turn,) = services.your_turn(bob_user.pk)
    assert turn.opponent == "alice" and 3 * DAY - timedelta(seconds=5) < turn.left <= 3 * DAY
    home = bob.get("/").content.decode().replace("\xa0", " ")
    assert "against alice" in home and "2 days, 23 hours left" in home
    assert "3 × 3 boxes" in home  # a size always says boxes
    assert 'data-testid="your-turn-count">1<' in home
    assert 'data-testid="your-turn-count">0<' in alice.get("/").content.decode()


def test_a_turn_notice_is_raised_once_per_position_and_not_for_a_box_and_move_again(
    two, django_capture_on_commit_callbacks
):
    room, alice, alice_user, bob, bob_user = two
    assert Notification.objects.filter(user=alice_user, kind="turn").count() == 1  # seated
    with django_capture_on_commit_callbacks(execute=True):
        act(alice, room, "move", edge="a1-b1")
    assert Notification.objects.filter(user=bob_user, kind="turn").count() == 1
    page = bob.get("/notifications/").content.decode()
    assert "Your turn: alice vs bob" in page
    bob.post("/notifications/read")
    assert not Notification.objects.filter(user=bob_user, read_at__isnull=True).exists()


def test_a_notice_a_day_before_the_deadline_from_the_clock_once(two):
    _room, _alice, alice_user, _bob, _bob_user = two
    ticker.tick()
    assert not Notification.objects.filter(kind="deadline").exists()
    clock.advance(2 * DAY + timedelta(hours=1))
    ticker.tick()
    ticker.tick()
    (notice,) = Notification.objects.filter(kind="deadline")
    assert notice.user == alice_user


def test_mail_only_when_opted_in_and_at_most_one_an_hour(two, django_capture_on_commit_callbacks):
    room, alice, _alice_user, bob, bob_user = two
    ticker.tick()
    assert mail.outbox == []  # nobody opted in
    response = bob.post("/notifications/", {"email": "on", "address": "bob@example.com"})
    assert response.status_code == 302 and Preferences.objects.get(user=bob_user).email
    with django_capture_on_commit_callbacks(execute=True):
        act(alice, room, "move", edge="a1-b1")
    ticker.tick()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["bob@example.com"]
    assert "Your turn: alice vs bob" in mail.outbox[0].body
    assert room.game.public_id in mail.outbox[0].body
    with django_capture_on_commit_callbacks(execute=True):
        act(bob, room, "move", edge="a3-b3")
        act(alice, room, "move", edge="b3-c3")
    ticker.tick()
    assert len(mail.outbox) == 1  # within the hour: batched
    clock.advance(timedelta(minutes=61))
    ticker.tick()
    assert len(mail.outbox) == 2
    ticker.tick()
    assert len(mail.outbox) == 2  # nothing new to say


@pytest.fixture
def mid_january(_movable_clock):
    """The clock moved to 10 January next year: the days counted stay in one year
    (a deadline past 31 December would start a new allowance) whatever the run's date."""
    start = datetime(clock.now().year + 1, 1, 10, 8, tzinfo=UTC)
    clock.advance(start - clock.now())


def test_the_deadline_mail_says_the_vacation_days_left_and_comes_again_after_one(
    mid_january, two, settings
):
    settings.VACATION_DAYS_PER_YEAR = 3
    room, alice, alice_user, _bob, _bob_user = two  # Alice to move, 3 days a move
    alice.post("/notifications/", {"email": "on", "address": "alice@example.com"})
    clock.advance(2 * DAY + timedelta(hours=1))
    ticker.tick()
    (sent,) = mail.outbox
    assert "Time to move is running out: alice vs bob" in sent.body
    assert "Vacation days left this year: 3 of 3" in sent.body
    clock.advance(DAY)  # her time ran out: a vacation day gives her one more
    ticker.tick()
    assert Room.objects.get(pk=room.pk).game.is_active
    assert Notification.objects.filter(user=alice_user, kind="deadline").count() == 2
    assert len(mail.outbox) == 2 and "Vacation days left this year: 2 of 3" in mail.outbox[1].body


def test_the_notifications_page_needs_sign_in(client, db):
    response = client.get("/notifications/")
    assert response.status_code == 302 and "/accounts/login" in response["Location"]
    assert client.post("/notifications/read").status_code == 302


def test_at_one_day_a_move_the_warning_waits_until_six_hours_are_left(db):
    alice, alice_user = player("alice")
    bob, _bob_user = player("bob")
    join(bob, open_room(alice, timer=86400, width=2, height=2))
    ticker.tick()
    assert not Notification.objects.filter(kind="deadline").exists()  # not with the turn
    clock.advance(timedelta(hours=17))
    ticker.tick()
    assert not Notification.objects.filter(kind="deadline").exists()
    clock.advance(timedelta(hours=1, minutes=1))
    ticker.tick()
    assert Notification.objects.filter(kind="deadline", user=alice_user).count() == 1


def test_an_unconfirmed_address_gets_no_mail_until_its_owner_confirms_it(
    db, django_capture_on_commit_callbacks
):
    alice, _alice_user = player("alice")
    bob, bob_user = player("bob", verified=False)
    with django_capture_on_commit_callbacks(execute=True):
        room = open_room(alice, timer=3 * 86400, width=3, height=3)
        join(bob, room)
    # Opting in is kept, but the page says the address waits for confirmation.
    assert bob.post("/notifications/", {"email": "on"}).status_code == 302
    assert Preferences.objects.get(user=bob_user).email
    assert "not confirmed yet" in bob.get("/notifications/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        act(alice, room, "move", edge="a1-b1")
    ticker.tick()
    assert mail.outbox == []
    Profile.objects.filter(user=bob_user).update(email_verified=True)
    ticker.tick()
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]


def test_a_turn_already_played_is_not_mailed_later(two, django_capture_on_commit_callbacks):
    room, alice, _alice_user, bob, bob_user = two
    bob.post("/notifications/", {"email": "on", "address": "bob@example.com"})
    with django_capture_on_commit_callbacks(execute=True):
        act(alice, room, "move", edge="a1-b1")
    ticker.tick()
    assert len(mail.outbox) == 1  # the first turn, at once
    with django_capture_on_commit_callbacks(execute=True):
        act(bob, room, "move", edge="a3-b3")
        act(alice, room, "move", edge="b3-c3")  # bob's turn again: a second notice
        act(bob, room, "move", edge="a2-b2")  # ...which he plays within the hour
    clock.advance(timedelta(minutes=61))
    ticker.tick()
    assert len(mail.outbox) == 1  # nothing waits for bob: no mail about a board he answered
    # Nothing waits to be mailed: the notice he answered was marked read when he moved.
    waiting = Notification.objects.filter(user=bob_user, emailed_at__isnull=True)
    assert not waiting.filter(read_at__isnull=True).exists()
    with django_capture_on_commit_callbacks(execute=True):
        act(alice, room, "move", edge="c1-c2")
    ticker.tick()
    assert len(mail.outbox) == 2 and mail.outbox[1].body.count("Your turn:") == 1


def test_mail_speaks_the_players_saved_language(two, django_capture_on_commit_callbacks):
    room, alice, _alice_user, bob, bob_user = two
    bob.post("/notifications/", {"email": "on", "address": "bob@example.com"})
    Profile.objects.update_or_create(user=bob_user, defaults={"language": "zh-hans"})
    with django_capture_on_commit_callbacks(execute=True):
        act(alice, room, "move", edge="a1-b1")
    ticker.tick()
    (message,) = mail.outbox
    assert message.subject == "dotsboxes：轮到你走了"
    assert "轮到你走：alice 对 bob" in message.body and "Your turn" not in message.body
    assert "bob，你好" in message.body
    assert "今年剩余休假天数：14 / 14" in message.body  # the vacation line, in Chinese too


def test_a_turn_notice_is_read_once_its_player_has_moved_in_that_game(
    two, django_capture_on_commit_callbacks
):
    # Issue 23: a "your turn" notice stayed new after its player had moved in that game.
    room, alice, alice_user, bob, bob_user = two
    seated = Notification.objects.get(user=alice_user, kind="turn")
    assert seated.read_at is None
    with django_capture_on_commit_callbacks(execute=True):
        act(alice, room, "move", edge="a1-b1")
    seated.refresh_from_db()
    assert seated.read_at is not None
    assert Notification.objects.get(user=bob_user, kind="turn").read_at is None  # bob's applies
    with django_capture_on_commit_callbacks(execute=True):
        act(bob, room, "resign")
    assert not Notification.objects.filter(kind="turn", read_at__isnull=True).exists()


def test_the_header_labels_both_counts_and_its_poll_brings_them_up_to_date(
    two, django_capture_on_commit_callbacks
):
    # Issue 23: the header read "Your turn 1 1", and neither number changed while the page
    # was open.  Each number has its label; the fragment the page polls is the same header.
    room, alice, _alice_user, bob, _bob_user = two
    home = bob.get("/").content.decode()
    assert 'data-testid="your-turn-count">0<' in home and "unread-notices" not in home
    assert 'hx-get="/notifications/header"' in home and 'hx-trigger="every 20s"' in home
    with django_capture_on_commit_callbacks(execute=True):
        act(alice, room, "move", edge="a1-b1")
    header = bob.get("/notifications/header").content.decode().strip()
    assert header.startswith('<a href="/notifications/"') and 'id="header-counts"' in header
    assert '<span class="count-label">Your turn</span> <span class="badge"' in header
    assert 'data-testid="your-turn-count">1<' in header
    assert '<span class="count-label">Notices</span>' in header
    assert 'data-testid="unread-notices">1<' in header
    zh = bob.get("/notifications/header", HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
    assert "通知" in zh
    assert Client().get("/notifications/header").status_code == 286  # signed out: stop polling
