"""Players report a game at one point; staff review it beside the replay."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from dotsboxes import throttle
from dotsboxes.reports.models import Report
from dotsboxes.rooms import chat
from dotsboxes.rooms import services as rooms
from dotsboxes.rooms.identity import Viewer
from tests.gamefactory import played_game

pytestmark = pytest.mark.django_db
PASSWORD = "plenty-of-boxes-42"


@pytest.fixture(autouse=True)
def own_cache(settings):
    """A private cache per test, so the rate limit counts only this test's reports."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": uuid.uuid4().hex,
        }
    }


@pytest.fixture
def alice():
    return get_user_model().objects.create_user("alice", password=PASSWORD)


@pytest.fixture
def staff():
    return get_user_model().objects.create_user("sam", password=PASSWORD, is_staff=True)


@pytest.fixture
def game():
    return played_game(width=3, height=2, seed=4)


def new_url(game, ply=None) -> str:
    url = f"{reverse('reports:new')}?game={game.public_id}"
    return url if ply is None else f"{url}&ply={ply}"


def report_on(game, ply=5, **fields) -> Report:
    board = game.board(ply=ply)
    defaults = {"category": "rules", "text": "The box was not given to me."}
    return Report.objects.create(
        game=game,
        width=game.width,
        height=game.height,
        ply=ply,
        position_key=board.key(),
        **(defaults | fields),
    )


def test_the_report_page_shows_the_position_at_the_ply_and_the_form(client, game):
    response = client.get(new_url(game, 5))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<svg" in html and html.count('class="edge drawn') == 5
    assert "after 5 of 17 edges" in html
    for label in ("A rule was applied wrongly", "The computer misbehaved", "Offensive chat"):
        assert label in html
    assert "csrfmiddlewaretoken" in html


def test_an_anonymous_player_reports_a_position_and_it_is_stored_with_its_key(client, game):
    response = client.post(
        new_url(game, 7), {"category": "computer", "text": "  It moved twice in a row.  "}
    )
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("reports:thanks"))
    report = Report.objects.get()
    assert (report.game, report.ply, report.category) == (game, 7, "computer")
    assert (report.width, report.height) == (3, 2)
    assert report.position_key == game.board(ply=7).key()
    assert report.text == "It moved twice in a row." and report.reporter is None
    assert report.status == Report.Status.OPEN
    assert "Thank you" in client.get(response["Location"]).content.decode()


def test_a_signed_in_player_is_named_on_the_report(client, alice, game):
    client.force_login(alice)
    client.post(new_url(game), {"category": "chat", "text": "Rude words in the chat."})
    report = Report.objects.get()
    assert report.reporter == alice
    assert report.ply == 17  # no ply given: the latest position


@pytest.mark.parametrize(("ply", "stored"), [("-3", 0), ("999", 17), ("abc", 17), ("", 17)])
def test_an_out_of_range_or_unreadable_ply_is_kept_within_the_game(client, game, ply, stored):
    client.post(new_url(game, ply), {"category": "other", "text": "Something odd here."})
    assert Report.objects.get().ply == stored


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"category": "rules", "text": ""}, "This field is required"),
        ({"category": "rules", "text": "  hm "}, "in a few words"),
        ({"category": "weather", "text": "It rained on the board."}, "Select a valid choice"),
        ({"text": "No category given at all."}, "This field is required"),
    ],
)
def test_a_bad_report_says_why_and_stores_nothing(client, game, data, message):
    response = client.post(new_url(game, 3), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Report.objects.exists()


@pytest.mark.parametrize("query", ["", "?game=nope", "?game="])
def test_a_report_for_an_unknown_game_is_a_plain_404(client, query):
    response = client.get(reverse("reports:new") + query)
    assert response.status_code == 404
    assert "Game not found" in response.content.decode()


def test_reporting_needs_the_csrf_token(game):
    client = Client(enforce_csrf_checks=True)
    response = client.post(new_url(game), {"category": "other", "text": "No token here."})
    assert response.status_code == 403
    assert not Report.objects.exists()


def report_limit() -> int:
    """Reports one person may send per window (the "report" rate, per person)."""
    return throttle.parse_rate(throttle.rates("report")[0])[0]


def test_report_creation_is_rate_limited_per_person(client, game, alice, rate_limits):
    client.force_login(alice)
    data = {"category": "other", "text": "Reporting again and again."}
    for _ in range(report_limit()):
        assert client.post(new_url(game), data).status_code == 302
    response = client.post(new_url(game), data)
    assert response.status_code == 429
    assert "please wait" in response.content.decode()
    assert response["Retry-After"].isdigit()
    assert Report.objects.count() == report_limit()


def test_a_report_form_sent_back_with_a_mistake_is_not_counted(client, game, rate_limits):
    rate_limits.RATE_LIMITS = {"report": ("1/h", "1/h")}
    for _ in range(3):
        assert client.post(new_url(game), {"category": "other", "text": ""}).status_code == 200
    data = {"category": "other", "text": "Now a real one."}
    assert client.post(new_url(game), data).status_code == 302
    assert client.post(new_url(game), data).status_code == 429


def test_the_report_rate_is_read_from_settings(client, game, alice, rate_limits):
    rate_limits.RATE_LIMITS = {"report": ("1/h", "20/h")}
    client.force_login(alice)
    data = {"category": "other", "text": "Reporting again and again."}
    assert client.post(new_url(game), data).status_code == 302
    assert client.post(new_url(game), data).status_code == 429


def test_the_rate_limit_counts_each_account_separately(game, alice, rate_limits):
    other = get_user_model().objects.create_user("bob", password=PASSWORD)
    data = {"category": "other", "text": "Reporting again and again."}
    first, second = Client(), Client()
    first.force_login(alice)
    second.force_login(other)
    for _ in range(report_limit()):
        first.post(new_url(game), data)
    assert first.post(new_url(game), data).status_code == 429
    assert second.post(new_url(game), data).status_code == 302


def test_the_queue_sends_signed_out_visitors_to_sign_in_and_hides_from_players(client, alice):
    response = client.get(reverse("reports:queue"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login") + "?next=")
    client.force_login(alice)
    assert client.get(reverse("reports:queue")).status_code == 404


def test_players_cannot_see_or_resolve_a_report(client, alice, game):
    report = report_on(game)
    client.force_login(alice)
    assert client.get(reverse("reports:detail", args=[report.pk])).status_code == 404
    response = client.post(reverse("reports:resolve", args=[report.pk]), {"note": "Done."})
    assert response.status_code == 404
    report.refresh_from_db()
    assert report.status == Report.Status.OPEN


def test_staff_see_open_reports_in_the_queue_and_filter_resolved_ones(client, staff, game):
    open_one = report_on(game, text="Open one, still waiting.")
    report_on(game, ply=2, text="Closed one.", status=Report.Status.RESOLVED)
    client.force_login(staff)
    html = client.get(reverse("reports:queue")).content.decode()
    assert open_one.get_absolute_url() in html
    assert "Open (1)" in html and "Resolved (1)" in html
    assert html.count("<tr>") == 2
    html = client.get(reverse("reports:queue") + "?status=all").content.decode()
    assert html.count("<tr>") == 3


def test_the_detail_shows_the_report_beside_the_replay_at_its_ply(client, staff, game):
    report = report_on(game, ply=5)
    client.force_login(staff)
    html = client.get(report.get_absolute_url()).content.decode()
    assert "The box was not given to me." in html
    assert "after 5 of 17 edges" in html and html.count('class="edge drawn') == 5
    assert report.position_key in html
    assert 'href="?ply=4" rel="prev"' in html and 'href="?ply=6" rel="next"' in html
    assert html.count('aria-current="step"') == 1
    replay = reverse("games:replay", args=[game.public_id]) + "?ply=5"
    assert f'href="{replay}"' in html
    assert client.get(replay).status_code == 200


def test_staff_step_through_the_replay_to_the_start_and_the_end(client, staff, game):
    report = report_on(game, ply=5)
    client.force_login(staff)
    start = client.get(report.get_absolute_url() + "?ply=0").content.decode()
    assert 'class="edge drawn' not in start and 'rel="prev"' not in start
    end = client.get(report.get_absolute_url() + "?ply=17").content.decode()
    assert end.count('class="edge drawn') == 17 and 'rel="next"' not in end
    assert "Game over" in end


def test_staff_resolve_a_report_with_a_note_and_can_reopen_it(client, staff, game):
    report = report_on(game)
    client.force_login(staff)
    response = client.post(reverse("reports:resolve", args=[report.pk]), {"note": "Rules fine."})
    assert response.status_code == 302
    report.refresh_from_db()
    assert report.status == Report.Status.RESOLVED and report.resolution_note == "Rules fine."
    assert report.resolved_by == staff and report.resolved_at is not None
    assert "Rules fine." in client.get(report.get_absolute_url()).content.decode()
    client.post(reverse("reports:reopen", args=[report.pk]))
    report.refresh_from_db()
    assert report.status == Report.Status.OPEN and report.resolved_by is None


def test_a_report_resolved_already_is_not_resolved_again(client, staff, game):
    # The form posted twice, or a second member of staff at the same time: the first
    # resolution (who, when, the note) stands, and the second is told so.
    report = report_on(game)
    client.force_login(staff)
    url = reverse("reports:resolve", args=[report.pk])
    client.post(url, {"note": "Rules fine."})
    report.refresh_from_db()
    first = (report.resolved_by_id, report.resolved_at, report.resolution_note)
    other = get_user_model().objects.create_user("second-staff", is_staff=True)
    client.force_login(other)
    response = client.post(url, {"note": "Looked again."}, follow=True)
    assert "already resolved" in response.content.decode()
    report.refresh_from_db()
    assert (report.resolved_by_id, report.resolved_at, report.resolution_note) == first


def test_reopening_an_open_report_changes_nothing_and_says_so(client, staff, game):
    report = report_on(game)
    client.force_login(staff)
    response = client.post(reverse("reports:reopen", args=[report.pk]), follow=True)
    assert "already open" in response.content.decode()
    report.refresh_from_db()
    assert report.status == Report.Status.OPEN


def test_resolving_without_a_note_is_refused(client, staff, game):
    report = report_on(game)
    client.force_login(staff)
    response = client.post(reverse("reports:resolve", args=[report.pk]), {"note": ""}, follow=True)
    assert "Write a short note" in response.content.decode()
    report.refresh_from_db()
    assert report.status == Report.Status.OPEN


def test_resolving_needs_the_csrf_token(staff, game):
    report = report_on(game)
    client = Client(enforce_csrf_checks=True)
    client.force_login(staff)
    response = client.post(reverse("reports:resolve", args=[report.pk]), {"note": "x"})
    assert response.status_code == 403


def test_the_admin_lists_and_shows_reports_with_a_link_to_the_review_page(client, game):
    admin = get_user_model().objects.create_superuser("root", password=PASSWORD)
    report = report_on(game)
    client.force_login(admin)
    listing = client.get(reverse("admin:reports_report_changelist")).content.decode()
    assert "3 x 2 boxes, edge 5" in listing and report.get_absolute_url() in listing
    change = client.get(reverse("admin:reports_report_change", args=[report.pk]))
    assert change.status_code == 200
    response = client.post(
        reverse("admin:reports_report_change", args=[report.pk]),
        {"status": "resolved", "resolution_note": "Checked in the admin."},
    )
    assert response.status_code == 302
    report.refresh_from_db()
    assert report.status == "resolved" and report.resolved_by == admin


def test_the_detail_shows_an_online_games_chat_for_judging_a_chat_report(client, staff):
    User = get_user_model()
    ann, ben = User.objects.create_user("ann"), User.objects.create_user("ben")
    as_ann = Viewer(ann.pk, "", "ann", f"u:{ann.pk}")
    room = rooms.room_create(viewer=as_ann, width=2, height=2, host_side="blue")
    rooms.room_join(public_id=room.game.public_id, viewer=Viewer(ben.pk, "", "ben", f"u:{ben.pk}"))
    chat.room_chat(
        public_id=room.game.public_id, viewer=as_ann, text="You play like a <b>turnip</b>"
    )
    report = report_on(room.game, ply=0, category="chat", text="Rude words about vegetables.")
    client.force_login(staff)
    html = client.get(report.get_absolute_url()).content.decode()
    assert "Chat in this game" in html
    assert "You play like a &lt;b&gt;turnip&lt;/b&gt;" in html  # escaped, never raw HTML


def test_the_detail_of_a_game_without_chat_has_no_chat_section(client, staff, game):
    client.force_login(staff)
    assert (
        "Chat in this game" not in client.get(report_on(game).get_absolute_url()).content.decode()
    )
