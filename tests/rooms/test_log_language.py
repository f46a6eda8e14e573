"""A room's log and its refusals read in each reader's language, whoever caused them."""
# ruff: noqa: RUF001 - Chinese text uses full-width punctuation.

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.rooms.conftest import act, join, open_room

pytestmark = pytest.mark.django_db


def page(client: Client, room) -> str:
    return client.get(reverse("rooms:room", args=[room.game.public_id])).content.decode()


def test_log_lines_are_put_together_in_the_readers_language():
    host = Client(headers={"accept-language": "zh-CN"})  # opens the room in Chinese
    room = open_room(host, "美")
    guest = Client(headers={"accept-language": "en"})
    join(guest, room, "Lei")
    act(guest, room, "offer", "draw")
    chinese, english = page(host, room), page(guest, room)
    assert "美 opened the room and sits as Blue." in english
    assert "Lei sits down as Red. The game is on!" in english
    assert "Lei offers a draw." in english
    assert "美 开了房间，执蓝方。" in chinese
    assert "Lei 入座执红方。对局开始！" in chinese
    assert "Lei 提议和棋。" in chinese
    assert "opened the room" not in chinese


def test_a_refusal_is_in_the_language_of_whoever_was_refused():
    room = open_room(Client(), "Alice")
    join(Client(), room, "Bob")
    watcher = Client(headers={"accept-language": "zh-CN"})
    response = act(watcher, room, "move", edge="a1-b1")
    assert response.status_code == 403
    assert "只有两位棋手可以画边；你正在观战。" in response.content.decode()
