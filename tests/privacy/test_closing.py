"""Closing an account: with the password; games stay under a neutral name, the rest goes."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client

from dotsboxes.accounts.models import Profile, ReservedName
from dotsboxes.api.models import ApiToken, Challenge
from dotsboxes.games.models import Game
from dotsboxes.tournaments.models import Entry

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db


def close(client: Client, password: str = PASSWORD):
    return client.post("/accounts/settings/close", {"password": password})


def test_closing_needs_the_password_and_changes_nothing_without_it(world):
    alice = world["alice"]
    response = close(world["alice_client"], "not-my-password")
    assert response.status_code == 400
    assert "not your current password" in response.content.decode()
    alice.refresh_from_db()
    assert alice.is_active and alice.username == "alice" and alice.email == "alice@example.com"
    assert Game.objects.get(pk=world["playing"].game.pk).is_active
    assert ApiToken.objects.filter(user=alice).exists()


def test_closing_needs_sign_in_and_a_post(client, world):
    assert client.post("/accounts/settings/close", {"password": PASSWORD}).status_code == 302
    assert world["alice_client"].get("/accounts/settings/close").status_code == 200
    assert get_user_model().objects.get(pk=world["alice"].pk).is_active


def test_closing_resolves_what_is_under_way_and_empties_the_account(
    world, django_capture_on_commit_callbacks
):
    alice, bob = world["alice"], world["bob"]
    with django_capture_on_commit_callbacks(execute=True):
        response = close(world["alice_client"])
    assert response.status_code == 200 and "Your account is closed" in response.content.decode()
    # Under way: resigned (Bob wins), the waiting room called off, challenge, tournament.
    playing = Game.objects.get(pk=world["playing"].game.pk)
    assert (playing.status, playing.result, playing.termination) == ("finished", "red", "resigned")
    waiting = Game.objects.get(pk=world["waiting"].game.pk)
    assert (waiting.status, waiting.termination) == ("aborted", "aborted")
    assert Challenge.objects.get(pk=world["challenge"].pk).status == Challenge.Status.CANCELLED
    entry = Entry.objects.get(user=alice, tournament=world["cup"])
    assert not entry.active
    assert Entry.objects.get(user=bob, tournament=world["cup"]).active
    # Personal data gone; the name kept reserved, the account renamed and switched off.
    alice.refresh_from_db()
    assert alice.username == f"closed-{alice.pk}" and not alice.is_active
    assert alice.email == "" and not alice.has_usable_password()
    profile = Profile.objects.get(user=alice)
    assert profile.closed_at and profile.language == "" and not profile.email_verified
    assert ReservedName.holds("ALICE")
    assert not ApiToken.objects.filter(user=alice).exists()
    assert ApiToken.objects.filter(user=bob).exists()  # nobody else's
    assert not any(
        s.get_decoded().get("_auth_user_id") == str(alice.pk) for s in Session.objects.all()
    )
    assert world["alice_client"].get("/accounts/settings/").status_code == 302  # signed out
    # Bob keeps his games; they name Alice's side neutrally, in his language too.
    over = Game.objects.get(pk=world["over"].pk)
    assert over.blue_user_id == alice.pk and over.blue_name == "Closed account"
    bob_page = world["bob_client"].get("/accounts/bob/").content.decode()
    assert "Closed account" in bob_page and "alice" not in bob_page
    room = world["bob_client"].get(f"/rooms/{playing.public_id}/").content.decode()
    assert "Closed account" in room and ">alice<" not in room
    zh = Client().get("/accounts/bob/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "已注销账户" in zh.content.decode()
    # The rating list and the profile no longer show her.
    assert "alice" not in Client().get("/accounts/ratings/").content.decode()
    assert f"closed-{alice.pk}" not in Client().get("/accounts/ratings/").content.decode()
    assert Client().get(f"/accounts/closed-{alice.pk}/").status_code == 404
    # Nobody can sign up with her name, and she cannot sign in.
    data = {"username": "Alice", "password1": PASSWORD, "password2": PASSWORD}
    assert "reserved" in Client().post("/accounts/signup/", data).content.decode()
    signin = Client().post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert signin.status_code == 200  # the form again: no such account


def test_the_room_log_names_a_closed_account_neutrally(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        close(world["alice_client"])
    page = world["bob_client"].get(f"/rooms/{world['playing'].game.public_id}/")
    text = page.content.decode()
    assert "Closed account resigned" in text and "alice resigned" not in text


def test_closing_deletes_the_players_studies_but_keeps_a_reported_one_for_staff(world):
    from dotsboxes.games.records import record_text
    from dotsboxes.reports.models import Report
    from dotsboxes.studies.models import Study
    from dotsboxes.studies.services import study_import

    text = record_text(world["over"])
    kept = study_import(owner=world["alice"], text=text, visibility="public")
    gone = study_import(owner=world["alice"], text=text, visibility="public")
    bobs = study_import(owner=world["bob"], text=text)
    Report.objects.create(
        study=kept,
        reporter=world["bob"],
        category="study",
        text="Rude.",
        width=2,
        height=2,
        ply=1,
        position_key="",
    )
    close(world["alice_client"])
    assert not Study.objects.filter(pk=gone.pk).exists()
    assert Study.objects.get(pk=kept.pk).visibility == Study.Visibility.PRIVATE
    assert Report.objects.filter(study=kept).exists()
    assert Study.objects.filter(pk=bobs.pk).exists()
