"""Tournament pages and actions, bad input included: nothing changes on a refusal."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from dotsboxes import clock
from dotsboxes.tournaments import services
from dotsboxes.tournaments.models import Entry, Tournament
from tests.tournaments.conftest import make_players

pytestmark = pytest.mark.django_db


def signed_in(user, **kw) -> Client:
    client = Client(**kw)
    client.force_login(user)
    return client


def create_form(**over) -> dict:
    data = {
        "name": "Friday arena",
        "kind": "arena",
        "width": 5,
        "height": 5,
        "timer": 60,
        "rated": "on",
        "starts_in": 10,
        "duration": 30,
        "rounds": "",
    }
    return {**data, **over}


@pytest.fixture
def ann():
    return make_players("ann")[0]


@pytest.fixture
def upcoming(ann):
    return services.tournament_create(
        user=ann,
        name="Swiss night",
        kind="swiss",
        rounds=3,
        starts_at=clock.now() + timedelta(hours=1),
    )


def test_a_signed_in_player_creates_an_arena_with_the_plain_form(ann):
    response = signed_in(ann).post("/tournaments/create", create_form())
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == t.get_absolute_url()
    assert (t.name, t.kind, t.width, t.timer_seconds, t.rated, t.duration_minutes) == (
        "Friday arena",
        "arena",
        5,
        60,
        True,
        30,
    )
    assert not t.allow_bots and not t.featured


def test_creating_needs_an_account(db):
    response = Client().post("/tournaments/create", create_form())
    assert response.status_code == 403 and b"Sign in" in response.content
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    "forged",
    [
        {"kind": "knockout"},
        {"timer": 0},  # no clock: a tournament game must have one
        {"timer": 12345},
        {"width": 40},
        {"name": ""},
        {"name": "bad\x07name"},
        {"starts_in": -5},
        {"duration": ""},  # an arena needs a duration
        {"kind": "swiss", "rounds": 99},
        {"kind": "swiss", "rounds": ""},
    ],
)
def test_forged_or_bad_creation_input_is_refused_and_stores_nothing(ann, forged):
    response = signed_in(ann).post("/tournaments/create", create_form(**forged))
    assert response.status_code == 400
    assert b"form-error" in response.content or b"errorlist" in response.content
    assert not Tournament.objects.exists()


def test_creation_is_throttled(ann, rate_limits):
    client = signed_in(ann)
    codes = [client.post("/tournaments/create", create_form()).status_code for _ in range(6)]
    assert codes == [302] * 5 + [429]
    assert Tournament.objects.count() == 5


def test_posts_need_a_csrf_token(ann, upcoming):
    client = signed_in(ann, enforce_csrf_checks=True)
    assert client.post(f"/tournaments/{upcoming.pk}/join").status_code == 403
    assert client.post("/tournaments/create", create_form()).status_code == 403
    assert not Entry.objects.exists() and Tournament.objects.count() == 1


def test_joining_from_the_page_then_twice(ann, upcoming):
    client = signed_in(ann)
    page = client.get(upcoming.get_absolute_url()).content.decode()
    assert "Join" in page and "Swiss night" in page
    assert client.post(f"/tournaments/{upcoming.pk}/join").status_code == 302
    again = client.post(f"/tournaments/{upcoming.pk}/join")
    assert again.status_code == 409 and b"already in" in again.content
    assert Entry.objects.count() == 1
    page = client.get(upcoming.get_absolute_url()).content.decode()
    assert "You are in." in page and "ann" in page


def test_joining_needs_an_account_and_an_existing_tournament(upcoming):
    response = Client().post(f"/tournaments/{upcoming.pk}/join")
    assert response.status_code == 403
    assert Client().post("/tournaments/999999/join").status_code == 404
    assert not Entry.objects.exists()


def test_joining_an_arena_after_its_end_is_refused(ann):
    t = services.tournament_create(
        user=ann, name="Short", kind="arena", duration_minutes=5, starts_at=clock.now()
    )
    services.tournament_tick()
    clock.advance(timedelta(minutes=6))
    response = signed_in(ann).post(f"/tournaments/{t.pk}/join")
    assert response.status_code == 409 and b"over" in response.content
    assert not Entry.objects.exists()


def test_join_is_a_post_only(ann, upcoming):
    assert signed_in(ann).get(f"/tournaments/{upcoming.pk}/join").status_code == 405
    assert not Entry.objects.exists()


def test_htmx_join_answers_with_the_page_fragment(ann, upcoming):
    response = signed_in(ann).post(f"/tournaments/{upcoming.pk}/join", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and 'id="t-page"' in html and "<html" not in html


def test_only_staff_feature_and_the_home_page_shows_it(ann, upcoming):
    assert (
        signed_in(ann).post(f"/tournaments/{upcoming.pk}/feature", {"featured": "1"}).status_code
        == 403
    )
    upcoming.refresh_from_db()
    assert not upcoming.featured
    staff = make_players("sam")[0]
    staff.is_staff = True
    staff.save()
    assert (
        signed_in(staff).post(f"/tournaments/{upcoming.pk}/feature", {"featured": "1"}).status_code
        == 302
    )
    home = Client().get("/").content.decode()
    assert "Swiss night" in home and upcoming.get_absolute_url() in home


def test_only_the_organiser_starts_early(ann, upcoming):
    ben = make_players("ben")[0]
    assert signed_in(ben).post(f"/tournaments/{upcoming.pk}/start").status_code == 403
    upcoming.refresh_from_db()
    assert upcoming.status == "upcoming"


def test_the_list_shows_upcoming_running_and_finished(ann, upcoming):
    page = Client().get("/tournaments/").content.decode()
    assert "Upcoming" in page and "Running" in page and "Finished" in page
    assert "Swiss night" in page and "Sign in" in page


def test_the_page_reloads_itself_without_javascript(upcoming):
    page = Client().get(upcoming.get_absolute_url()).content.decode()
    assert '<noscript><meta http-equiv="refresh"' in page
    assert "Reload the page" in page
    assert f"/ws/tournaments/{upcoming.pk}/" in page
    assert 'data-testid="countdown"' in page


def test_tournament_pages_read_in_chinese_with_no_english_left(ann, upcoming):
    from tests.i18n.english import english_words

    ben = make_players("ben")[0]
    services.tournament_join(tournament_id=upcoming.pk, user=ann)
    services.tournament_join(tournament_id=upcoming.pk, user=ben)
    services.tournament_start(tournament_id=upcoming.pk, user=ann)
    zh = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9"}
    for client in (Client(), signed_in(ann)):
        for path in ("/tournaments/", upcoming.get_absolute_url()):
            html = client.get(path, **zh).content.decode()
            # The players' names and the tournament's are typed by people, not translated.
            assert english_words(html, allowed={"ann", "ben", "Swiss night"}) == []


def test_featuring_twice_changes_nothing_the_second_time(upcoming):
    # Found by the chaos bad posts: the repeated post bumped the version and pushed the
    # page to every watcher, though nothing had changed.
    staff = make_players("sam")[0]
    staff.is_staff = True
    staff.save()
    client = signed_in(staff)
    assert client.post(f"/tournaments/{upcoming.pk}/feature", {"featured": "1"}).status_code == 302
    upcoming.refresh_from_db()
    assert upcoming.featured
    version = upcoming.version
    for featured in ("1", "1"):
        assert (
            client.post(f"/tournaments/{upcoming.pk}/feature", {"featured": featured}).status_code
            == 302
        )
    upcoming.refresh_from_db()
    assert upcoming.featured and upcoming.version == version
    assert client.post(f"/tournaments/{upcoming.pk}/feature", {"featured": "0"}).status_code == 302
    upcoming.refresh_from_db()
    assert not upcoming.featured and upcoming.version == version + 1
