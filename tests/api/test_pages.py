"""The pages a person uses: becoming a bot, tokens shown once, challenging a bot, BOT marks."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from dotsboxes.accounts.models import Rating
from dotsboxes.api import services, tokens
from dotsboxes.api.models import ApiToken, BotAccount, Challenge
from dotsboxes.games.models import Game
from dotsboxes.rooms import services as rooms

from .conftest import ApiClient

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def fresh(db):
    return get_user_model().objects.create_user("newbot", password="a long passphrase 42")


def test_a_fresh_account_becomes_a_bot_from_its_profile(fresh):
    client = signed_in(fresh)
    page = client.get(reverse("accounts:profile", args=["newbot"])).content.decode()
    assert "Turn this account into a bot account" in page and "bot-badge" not in page
    response = client.post(reverse("bots:become_bot"))
    assert response.status_code == 302
    assert BotAccount.objects.filter(user=fresh).exists()
    page = client.get(response["Location"]).content.decode()
    assert 'class="bot-badge"' in page and "API tokens" in page


def test_an_account_that_has_played_cannot_become_a_bot(alice, alphabot):
    challenge = services.challenge_create(challenger=alice, target=alphabot, width=1, height=1)
    services.challenge_accept(challenge_id=challenge.pk, user=alphabot)
    client = signed_in(alice)
    page = client.get(reverse("accounts:profile", args=["alice"])).content.decode()
    assert "cannot become a bot account" in page
    response = client.post(reverse("bots:become_bot"))
    assert response.status_code == 409
    assert "not played any game" in response.content.decode()
    assert not BotAccount.objects.filter(user=alice).exists()


def test_becoming_a_bot_needs_a_signed_in_post_with_csrf(fresh):
    assert Client().post(reverse("bots:become_bot")).status_code == 302  # to the sign-in page
    client = Client(enforce_csrf_checks=True)
    client.force_login(fresh)
    assert client.post(reverse("bots:become_bot")).status_code == 403
    assert not BotAccount.objects.exists()


def test_a_token_is_shown_once_then_only_its_prefix_and_it_can_be_revoked(alphabot):
    client = signed_in(alphabot)
    response = client.post(reverse("bots:token_new"), {"name": "laptop"})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    token = re.search(r'<code id="new-token">([^<]+)</code>', page).group(1)
    assert ApiClient(token).get("/api/account").json()["username"] == "alphabot"
    again = client.get(response["Location"]).content.decode()
    assert token not in again and token[:10] in again and "laptop" in again
    row = ApiToken.objects.get(user=alphabot)
    assert client.post(reverse("bots:token_revoke", args=[row.pk])).status_code == 302
    assert ApiClient(token).get("/api/account").status_code == 401
    assert token[:10] not in client.get(response["Location"]).content.decode()


def test_a_person_cannot_make_tokens_nor_revoke_someone_elses(alice, alphabot):
    client = signed_in(alice)
    assert client.post(reverse("bots:token_new")).status_code == 400
    assert not ApiToken.objects.filter(user=alice).exists()
    row, token = tokens.token_create(user=alphabot)
    assert client.post(reverse("bots:token_revoke", args=[row.pk])).status_code == 400
    assert ApiClient(token).get("/api/account").status_code == 200


def test_a_person_challenges_a_bot_from_its_profile_and_lands_in_the_room(alice, alphabot):
    client = signed_in(alice)
    page = client.get(reverse("accounts:profile", args=["alphabot"])).content.decode()
    assert "Challenge this bot" in page and 'class="bot-badge"' in page
    response = client.post(
        reverse("bots:challenge_bot", args=["alphabot"]),
        {"width": 3, "height": 2, "side": "blue", "timer": 0},
    )
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.width, challenge.height, challenge.rated) == (3, 2, False)
    waiting = client.get(response["Location"])
    assert "Waiting for the bot" in waiting.content.decode()
    polled = client.get(response["Location"], headers={"HX-Request": "true"})
    assert 'hx-trigger="every 1s"' in polled.content.decode()
    room = services.challenge_accept(challenge_id=challenge.pk, user=alphabot)
    assert client.get(response["Location"])["Location"] == room.get_absolute_url()
    polled = client.get(response["Location"], headers={"HX-Request": "true"})
    assert polled["HX-Redirect"] == room.get_absolute_url()
    page = client.get(room.get_absolute_url()).content.decode()
    assert re.search(r'alphabot <span class="bot-badge"', page)
    bot_seat = page.split('data-side="red"')[1].split("</li>")[0]
    assert "alphabot" in bot_seat
    assert "not connected" not in bot_seat  # a bot plays through the API, not a socket


def _play(room, *moves) -> Game:
    for user, edge in moves:
        version = Game.objects.get(pk=room.game.pk).version
        rooms.room_play_move(
            public_id=room.game.public_id,
            viewer=services.viewer_of(user),
            edge=edge,
            version=version,
        )
    return Game.objects.get(pk=room.game.pk)


def test_a_game_against_a_bot_is_unrated_unless_the_person_ticks_rated(alice, alphabot):
    client = signed_in(alice)
    form = {"width": 1, "height": 1, "side": "blue", "timer": 0}
    for rated in (False, True):
        data = {**form, "rated": "on"} if rated else form
        client.post(reverse("bots:challenge_bot", args=["alphabot"]), data)
        challenge = Challenge.objects.get(status="pending")
        room = services.challenge_accept(challenge_id=challenge.pk, user=alphabot)
        game = _play(
            room, (alice, "a1-b1"), (alphabot, "a2-b2"), (alice, "a1-a2"), (alphabot, "b1-b2")
        )
        assert (game.status, game.result, game.rated) == ("finished", "red", rated)
    assert Rating.objects.get(user=alphabot).games == 1  # only the rated one counted
    assert Rating.objects.get(user=alice).losses == 1


def test_the_bot_mark_in_the_lobby_the_ratings_and_the_opponents_list(alice, alphabot):
    challenge = services.challenge_create(
        challenger=alice, target=alphabot, width=1, height=1, rated=True, side="blue"
    )
    room = services.challenge_accept(challenge_id=challenge.pk, user=alphabot)
    lobby = Client().get(reverse("rooms:lobby")).content.decode()
    assert re.search(r'alphabot <span class="bot-badge"', lobby)
    assert not re.search(r'alice <span class="bot-badge"', lobby)
    _play(room, (alice, "a1-b1"), (alphabot, "a2-b2"), (alice, "a1-a2"), (alphabot, "b1-b2"))
    ratings = Client().get(reverse("accounts:ratings")).content.decode()
    assert re.search(r'alphabot</a> <span class="bot-badge"', ratings)
    assert not re.search(r'alice</a> <span class="bot-badge"', ratings)
    profile = Client().get(reverse("accounts:profile", args=["alice"])).content.decode()
    assert re.search(r'against alphabot <span class="bot-badge"', profile)
    analysis = Client().get(reverse("analysis:game", args=[room.game.public_id]))
    assert re.search(r'against alphabot <span class="bot-badge"', analysis.content.decode())


def test_a_signed_out_visitor_is_asked_to_sign_in_to_challenge(alphabot):
    page = Client().get(reverse("accounts:profile", args=["alphabot"])).content.decode()
    assert "to challenge this bot" in page and "<form" not in page.split("Challenge this bot")[1]
    response = Client().post(reverse("bots:challenge_bot", args=["alphabot"]), {"width": 2})
    assert response.status_code == 302 and not Challenge.objects.exists()


def test_challenging_a_person_from_a_profile_is_refused(alice, db):
    bob = get_user_model().objects.create_user("bob", password="a long passphrase 42")
    response = signed_in(bob).post(
        reverse("bots:challenge_bot", args=["alice"]),
        {"width": 2, "height": 2, "side": "blue", "timer": 0},
    )
    assert response.status_code == 400 and not Challenge.objects.exists()


def test_a_person_cancels_a_waiting_challenge(alice, alphabot, bot_api):
    client = signed_in(alice)
    client.post(
        reverse("bots:challenge_bot", args=["alphabot"]),
        {"width": 2, "height": 2, "side": "blue", "timer": 0},
    )
    challenge = Challenge.objects.get()
    assert client.post(reverse("bots:challenge_cancel", args=[challenge.pk])).status_code == 302
    assert Challenge.objects.get().status == "cancelled"
    assert bot_api.post(f"/api/challenge/{challenge.pk}/accept").status_code == 409
    assert not Game.objects.exists()


def test_making_tokens_is_rate_limited(rate_limits, alphabot):
    rate_limits.RATE_LIMITS = {"api_token": ("2/h", "100/h")}
    client = signed_in(alphabot)
    statuses = [client.post(reverse("bots:token_new")).status_code for _ in range(3)]
    assert statuses == [302, 302, 429]
    assert ApiToken.objects.filter(user=alphabot).count() == 2


def test_staff_see_bots_tokens_and_challenges_in_the_admin(alphabot, challenge):
    tokens.token_create(user=alphabot, name="laptop")
    staff = get_user_model().objects.create_superuser("staff", password="a long passphrase 42")
    client = signed_in(staff)
    for model in ("botaccount", "apitoken", "challenge"):
        page = client.get(reverse(f"admin:api_{model}_changelist"))
        assert page.status_code == 200 and "alphabot" in page.content.decode()


def test_the_waiting_page_says_when_a_challenge_expired_and_stops_polling(alice, alphabot):
    client = signed_in(alice)
    response = client.post(
        reverse("bots:challenge_bot", args=["alphabot"]),
        {"width": 2, "height": 2, "side": "blue", "timer": 0},
    )
    Challenge.objects.update(created_at=Challenge.open_since() - timedelta(seconds=1))
    page = client.get(response["Location"]).content.decode()
    status = re.search(r'<div id="challenge-status"[^>]*>', page).group(0)
    # The page's own poll stops (the header's notice counts poll on every page).
    assert "has expired" in page and "hx-trigger" not in status


@pytest.mark.parametrize("name", ["lap\x01top", "x" * 41])
def test_a_token_name_with_a_control_character_or_too_long_is_refused_and_no_token_made(
    alphabot, name
):
    # The form's errors were dropped: a token was made anyway (nameless), its name unchecked.
    client = signed_in(alphabot)
    response = client.post(reverse("bots:token_new"), {"name": name})
    assert response.status_code == 400
    assert "control character" in response.content.decode() or "40" in response.content.decode()
    assert not ApiToken.objects.exists()


def test_the_bot_mark_in_your_turn_correspondence_games_and_tournaments(
    alice, alphabot, django_capture_on_commit_callbacks
):
    from dotsboxes import clock
    from dotsboxes.tournaments import services as tournaments

    challenge = services.challenge_create(
        challenger=alice, target=alphabot, width=2, height=2, timer_seconds=86400, side="blue"
    )
    services.challenge_accept(challenge_id=challenge.pk, user=alphabot)
    home = signed_in(alice).get("/").content.decode()  # alice is to move
    assert re.search(r'against alphabot <span class="bot-badge"', home)
    profile = Client().get(reverse("accounts:profile", args=["alice"])).content.decode()
    section = profile[profile.index("Correspondence games under way") :]
    assert re.search(r'against alphabot <span class="bot-badge"', section)
    with django_capture_on_commit_callbacks(execute=True):
        arena = tournaments.tournament_create(
            user=alice,
            name="Open arena",
            kind="arena",
            duration_minutes=30,
            starts_at=clock.now(),
            width=2,
            height=2,
            allow_bots=True,
        )
        tournaments.tournament_start(tournament_id=arena.pk, user=alice)
        tournaments.tournament_join(tournament_id=arena.pk, user=alice)
        tournaments.tournament_join(tournament_id=arena.pk, user=alphabot)
    page = Client().get(arena.get_absolute_url()).content.decode()
    assert re.search(r'<td>alphabot <span class="bot-badge"', page)  # the standings
    assert not re.search(r'<td>alice <span class="bot-badge"', page)
    playing = page[page.index('data-testid="playing"') :]
    assert re.search(r'alphabot <span class="bot-badge"', playing)  # the game in progress


def test_the_api_documentation_is_a_page_linked_from_a_bots_profile(fresh):
    # Issue 23: the profile said "See the API documentation (docs/API.md)" as plain text.
    from pathlib import Path

    page = Client().get(reverse("bots:api_docs"))
    assert page.status_code == 200
    html = page.content.decode()
    assert '<h1 id="the-bot-api">The bot API</h1>' in html
    assert "<table>" in html and "<pre><code" in html  # its tables and curl session, rendered
    source = (Path(__file__).resolve().parents[2] / "docs" / "API.md").read_text()
    assert "## Endpoints" in source and ">Endpoints</h2>" in html
    services.bot_account_create(user=fresh)
    profile = signed_in(fresh).get(reverse("accounts:profile", args=["newbot"])).content.decode()
    assert f'<a href="{reverse("bots:api_docs")}">API documentation</a>' in profile
    assert "(docs/API.md)" not in profile
