"""Sign up, sign in, sign out, profiles and the rating list."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from dotsboxes.accounts.models import Rating
from dotsboxes.games.models import Game
from tests.gamefactory import played_game

pytestmark = pytest.mark.django_db
PASSWORD = "plenty-of-boxes-42"


@pytest.fixture
def alice():
    return get_user_model().objects.create_user("alice", password=PASSWORD)


@pytest.fixture
def bob():
    return get_user_model().objects.create_user("bob", password=PASSWORD)


def test_signing_up_creates_the_account_signs_in_and_shows_the_profile(client):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "carol", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile", args=["carol"])
    carol = get_user_model().objects.get(username="carol")
    assert Rating.objects.get(user=carol).rating == 1500
    page = client.get(response["Location"]).content.decode()
    assert "<h1>carol</h1>" in page and "1500?" in page and "Sign out" in page


def test_signing_up_returns_to_a_safe_next_page_only(client):
    data = {"username": "dan", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(reverse("accounts:signup") + "?next=/learn/", data)
    assert response["Location"] == "/learn/"
    other = Client()
    data["username"] = "erin"
    response = other.post(reverse("accounts:signup") + "?next=https://evil.example/", data)
    assert response["Location"] == reverse("accounts:profile", args=["erin"])


@pytest.mark.parametrize(
    ("username", "password2", "message"),
    [
        ("ALICE", PASSWORD, "already exists"),
        ("ratings", PASSWORD, "reserved"),
        ("frank", "something-else-42", "match"),
        ("no spaces", PASSWORD, "Enter a valid username"),
    ],
)
def test_a_bad_sign_up_says_why_and_creates_nothing(client, alice, username, password2, message):
    before = get_user_model().objects.count()
    response = client.post(
        reverse("accounts:signup"),
        {"username": username, "password1": PASSWORD, "password2": password2},
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert get_user_model().objects.count() == before


def test_a_weak_password_is_refused(client):
    response = client.post(
        reverse("accounts:signup"), {"username": "gus", "password1": "12345", "password2": "12345"}
    )
    assert "too short" in response.content.decode()
    assert not get_user_model().objects.filter(username="gus").exists()


def test_signing_in_and_out(client, alice):
    home = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("accounts:login")}"' in home and ">Sign in<" in home
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    home = client.get(reverse("home")).content.decode()
    assert ">alice</a>" in home and "Sign out" in home
    assert client.get(reverse("accounts:logout")).status_code == 405  # only a POST signs out
    client.post(reverse("accounts:logout"))
    assert ">Sign in<" in client.get(reverse("home")).content.decode()


def test_a_wrong_password_is_refused_with_a_plain_message(client, alice):
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "do not match an account" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_sign_out_needs_the_csrf_token(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post(reverse("accounts:logout")).status_code == 403
    assert "_auth_user_id" in client.session


def test_the_profile_lists_the_players_finished_games_with_rating_changes(client, alice, bob):
    rated = played_game(
        mode=Game.Mode.ONLINE, rated=True, blue_user=alice, red_user=bob, red_name="bob"
    )
    local = played_game(seed=1, mode=Game.Mode.LOCAL, blue_user=alice, blue_name="alice")
    played_game(seed=2, edges=3, blue_user=alice)  # unfinished: not listed
    played_game(seed=3, red_user=bob)  # not alice's
    page = client.get(reverse("accounts:profile", args=["alice"])).content.decode()
    assert page.count("<tr>") == 1 + 2  # header row and two games
    rating = Rating.objects.get(user=alice)
    assert rating.display in page
    assert "unrated" in page and "bob" in page
    assert f'href="{local.get_absolute_url()}"' in page
    won = rated.result == Game.Result.BLUE
    assert ("Won" if won else "Lost" if rated.result == Game.Result.RED else "Tie") in page


def test_an_unknown_player_is_a_404(client):
    assert client.get(reverse("accounts:profile", args=["nobody"])).status_code == 404


def test_the_rating_list_ranks_players_who_have_played_rated_games(client, alice, bob):
    get_user_model().objects.create_user("idle", password=PASSWORD)
    game = Game.objects.create(
        mode=Game.Mode.ONLINE, rated=True, blue_user=alice, red_user=bob, status="active"
    )
    game.status, game.result, game.finished_at = "finished", "red", timezone.now()
    game.save()
    page = client.get(reverse("accounts:ratings")).content.decode()
    assert page.index(">bob</a>") < page.index(">alice</a>")
    assert "idle" not in page


def test_the_empty_rating_list_says_so(client):
    assert (
        "Nobody has played a rated game yet"
        in client.get(reverse("accounts:ratings")).content.decode()
    )
