"""Control characters in typed text are refused with a message naming them; nothing is stored."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from dotsboxes.games.models import Game
from dotsboxes.reports.models import Report
from dotsboxes.rooms.models import Message, Room
from tests.gamefactory import played_game
from tests.rooms.conftest import act, browser, open_room

pytestmark = pytest.mark.django_db
BAD = ["bell\x07", "esc\x1b[31m", "del\x7f", "c1\x85x"]


@pytest.mark.parametrize("text", BAD)
def test_chat_with_a_control_character_is_refused(room, alice, text):
    response = act(alice, room, "chat", text=text)
    assert response.status_code == 400
    assert "control character" in response.content.decode()
    assert not Message.objects.filter(room=room, kind=Message.Kind.CHAT).exists()


@pytest.mark.parametrize("field", ["text", "preset"])
def test_a_nul_in_chat_is_refused_and_never_reaches_the_database(room, alice, field):
    response = act(alice, room, "chat", **{field: "hi\x00there"})
    assert response.status_code == 400
    assert not Message.objects.filter(room=room, kind=Message.Kind.CHAT).exists()


def test_plain_chat_still_goes_through(room, alice):
    assert act(alice, room, "chat", text="Good luck!\tHave fun").status_code == 200
    assert Message.objects.filter(room=room, kind=Message.Kind.CHAT).count() == 1


@pytest.mark.parametrize("text", BAD)
def test_a_display_name_with_a_control_character_is_refused(text):
    client = browser()
    data = {"width": 2, "height": 2, "side": "blue", "timer": 0, "visibility": "public"}
    response = client.post(reverse("rooms:create"), data | {"name": text})
    assert response.status_code == 400
    assert "control character" in response.content.decode()
    assert not Room.objects.exists()


@pytest.mark.parametrize("text", BAD)
def test_joining_under_a_name_with_a_control_character_is_refused(text):
    room = open_room(browser())
    response = browser().post(reverse("rooms:join", args=[room.game.public_id]), {"name": text})
    assert response.status_code == 400
    assert "control character" in response.content.decode()
    room.game.refresh_from_db()
    assert room.game.red_token == ""


@pytest.mark.parametrize("text", BAD)
def test_local_player_names_with_a_control_character_are_refused(client, text):
    data = {"mode": "local", "size": "3x3", "blue_name": text, "red_name": "Bo"}
    response = client.post(reverse("games:new"), data)
    assert response.status_code in (200, 400)
    assert "control character" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("text", BAD)
def test_a_report_with_a_control_character_is_refused(client, text):
    game = played_game(width=3, height=2, seed=4)
    url = f"{reverse('reports:new')}?game={game.public_id}"
    response = client.post(url, {"category": "rules", "text": f"The box {text} was wrong"})
    assert "control character" in response.content.decode()
    assert not Report.objects.exists()


@pytest.mark.parametrize("text", BAD)
def test_an_imported_record_with_a_control_character_is_refused(client, text):
    record = f"Dots and Boxes 2x2\n1. a1-b1 {text}\n"
    response = client.post(reverse("games:import"), {"record": record, "mode": "replay"})
    assert "control character" in response.content.decode()
    assert not Game.objects.exists()


def test_a_username_with_a_control_character_cannot_sign_up(client):
    data = {
        "username": "al\x07ice",
        "password1": "plenty-of-boxes-42",
        "password2": "plenty-of-boxes-42",
    }
    response = client.post(reverse("accounts:signup"), data)
    assert response.status_code in (200, 400)
    assert not get_user_model().objects.exists()
