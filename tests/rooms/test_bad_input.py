"""Bad input is refused with a plain message and a 4xx status; nothing changes, never a 500."""

from __future__ import annotations

import pytest
from django.urls import reverse

from dotsboxes.rooms.models import Message, Room
from tests.rooms.conftest import act, browser


def snapshot(room: Room) -> tuple:
    room = Room.objects.select_related("game").get(pk=room.pk)
    game = room.game
    moves = tuple(game.moves.values_list("edge", flat=True))
    return (game.version, game.status, moves, room.draw_offer, room.takeback_offer)


@pytest.mark.parametrize("action", ["move", "resign", "abort", "offer/draw", "offer/takeback"])
def test_spectators_and_strangers_cannot_act_for_the_players(room, carol, action):
    before = snapshot(room)
    stranger = browser()  # never visited: no session at all
    for client in (carol, stranger):
        carol.get(room.get_absolute_url())
        name, *args = action.split("/")
        response = act(client, room, name, *args, edge="a1-b1")
        assert response.status_code == 403, response.content.decode()
        assert "you are watching" in response.content.decode()
    assert snapshot(room) == before


def test_a_spectator_cannot_answer_an_offer(room, alice, carol):
    act(alice, room, "offer", "draw")
    before = snapshot(room)
    assert act(carol, room, "answer", "draw", answer="accept").status_code == 403
    assert snapshot(room) == before


def test_a_move_out_of_turn_is_refused(room, bob):
    before = snapshot(room)
    response = act(bob, room, "move", edge="a1-b1")
    assert response.status_code == 409 and "Blue&#x27;s turn" in response.content.decode()
    assert snapshot(room) == before


def test_a_move_with_a_stale_version_is_refused_and_resyncs_the_page(room, alice, bob):
    act(alice, room, "move", edge="a1-b1")
    old = room.game.version
    act(bob, room, "move", edge="a3-b3")
    before = snapshot(room)
    response = act(alice, room, "move", edge="b1-c1", version=old)
    html = response.content.decode()
    assert response.status_code == 409 and "changed" in html
    assert f'data-version="{before[0]}"' in html and 'id="room-board"' in html
    assert snapshot(room) == before


@pytest.mark.parametrize("version", ["", "seven", "-1", "99999999999999999999"])
def test_missing_or_garbled_versions_are_refused(room, alice, version):
    before = snapshot(room)
    response = act(alice, room, "move", edge="a1-b1", version=version)
    assert response.status_code == 409
    assert snapshot(room) == before


@pytest.mark.parametrize(
    "edge", ["", "z9-z10", "a1-c1", "a1-b2", "<script>", "a1-b1" * 50, "\x00", "a7-b7"]
)
def test_edges_that_are_not_on_the_board_are_refused(room, alice, edge):
    before = snapshot(room)
    response = act(alice, room, "move", edge=edge)
    assert response.status_code == 400, response.content.decode()
    assert "<script>" not in response.content.decode()
    assert snapshot(room) == before


def test_an_edge_already_drawn_is_refused(room, alice, bob):
    act(alice, room, "move", edge="a1-b1")
    before = snapshot(room)
    response = act(bob, room, "move", edge="b1-a1")
    assert response.status_code == 400 and "already drawn" in response.content.decode()
    assert snapshot(room) == before


def test_unknown_offer_kinds_are_refused(room, alice):
    before = snapshot(room)
    assert act(alice, room, "offer", "surrender").status_code == 400
    assert act(alice, room, "answer", "surrender", answer="accept").status_code == 400
    assert snapshot(room) == before


def test_actions_refuse_get_requests(room, alice):
    url = reverse("rooms:move", args=[room.game.public_id])
    assert alice.get(url).status_code == 405


def test_a_refusal_without_htmx_is_a_plain_page(room, bob):
    response = act(bob, room, "move", edge="a1-b1", htmx=False)
    assert response.status_code == 409
    assert "Back to the game" in response.content.decode()


# -- chat -------------------------------------------------------------------------------


def test_chat_text_is_escaped_when_shown(room, alice, carol):
    assert act(alice, room, "chat", text="<img src=x onerror=alert(1)> hi").status_code == 200
    page = carol.get(room.get_absolute_url()).content.decode()
    assert "&lt;img src=x onerror=alert(1)&gt; hi" in page and "<img src=x" not in page


def test_chat_presets_and_free_text_reach_the_room(room, alice, bob, carol):
    act(alice, room, "chat", preset="Good luck")
    act(bob, room, "chat", text="  you   too ")
    lines = list(room.messages.filter(kind="chat").values_list("name", "text"))
    assert lines == [("Alice", "Good luck"), ("Bob", "you too")]


def test_chat_messages_are_length_limited(room, alice):
    response = act(alice, room, "chat", text="x" * 201)
    assert response.status_code == 400 and "200 characters" in response.content.decode()
    assert act(alice, room, "chat", text="   ").status_code == 400
    assert not room.messages.filter(kind="chat").exists()


def test_chat_floods_are_cut_off(room, alice, bob, settings):
    settings.ROOMS_CHAT_BURST = 3
    codes = [act(alice, room, "chat", text=f"spam {i}").status_code for i in range(6)]
    assert codes == [200, 200, 200, 429, 429, 429]
    assert Message.objects.filter(room=room, kind="chat").count() == 3
    # One player's flood does not silence the other.
    assert act(bob, room, "chat", text="calm down").status_code == 200


def test_spectators_cannot_chat(room, carol):
    carol.get(room.get_absolute_url())
    assert act(carol, room, "chat", text="hello").status_code == 403
    assert not room.messages.filter(kind="chat").exists()
