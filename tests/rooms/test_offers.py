"""Resign, abort, draw offers, take-backs and rematches between two browsers."""

from __future__ import annotations

from dotsboxes.games.models import Game
from dotsboxes.rooms.models import Room
from tests.rooms.conftest import act, fresh, join, open_room


def moves(room: Room) -> list[str]:
    return list(room.game.moves.order_by("ply").values_list("edge", flat=True))


def test_resigning_gives_the_game_to_the_opponent(room, bob):
    assert act(bob, room, "resign").status_code == 200
    game = fresh(room).game
    assert (game.status, game.result, game.termination) == ("finished", "blue", "resigned")


def test_abort_is_possible_until_both_players_have_finished_a_turn(room, alice, bob):
    act(alice, room, "move", edge="a1-b1")  # Blue finished a turn; Red has not
    assert act(bob, room, "abort").status_code == 200
    game = fresh(room).game
    assert (game.status, game.termination, game.result) == ("aborted", "aborted", "")


def test_abort_is_refused_once_both_have_moved(room, alice, bob):
    act(alice, room, "move", edge="a1-b1")
    act(bob, room, "move", edge="a3-b3")
    response = act(alice, room, "abort")
    assert response.status_code == 409 and "resign" in response.content.decode()
    assert fresh(room).game.status == Game.Status.ACTIVE


def test_the_host_can_abort_while_waiting_for_an_opponent(db, alice):
    room = open_room(alice)
    assert act(alice, room, "abort").status_code == 200
    assert fresh(room).game.status == Game.Status.ABORTED


def test_an_accepted_draw_is_a_result_of_its_own(room, alice, bob):
    act(alice, room, "move", edge="a1-b1")
    assert act(alice, room, "offer", "draw").status_code == 200
    assert fresh(room).draw_offer == "blue"
    assert act(bob, room, "answer", "draw", answer="accept").status_code == 200
    game = fresh(room).game
    assert (game.status, game.result, game.termination) == ("finished", "draw", "agreed")
    page = alice.get(room.get_absolute_url()).content.decode()
    assert "Drawn by agreement" in page


def test_a_draw_offer_cannot_be_repeated_or_answered_by_its_maker(room, alice):
    act(alice, room, "offer", "draw")
    again = act(alice, room, "offer", "draw")
    assert again.status_code == 409 and "already offered" in again.content.decode()
    own = act(alice, room, "answer", "draw", answer="accept")
    assert own.status_code == 409 and fresh(room).game.status == "active"


def test_a_declined_offer_cannot_be_made_again_until_the_next_move(room, alice, bob):
    act(alice, room, "offer", "draw")
    assert act(bob, room, "answer", "draw", answer="decline").status_code == 200
    assert fresh(room).draw_offer == ""
    refused = act(alice, room, "offer", "draw")
    assert refused.status_code == 409 and "after the next move" in refused.content.decode()
    act(alice, room, "move", edge="a1-b1")
    assert act(alice, room, "offer", "draw").status_code == 200


def test_a_move_withdraws_pending_offers(room, alice, bob):
    act(bob, room, "offer", "draw")
    act(alice, room, "move", edge="a1-b1")
    assert fresh(room).draw_offer == ""


def test_take_back_undoes_the_requesters_turn_and_the_reply_after_it(room, alice, bob):
    for who, edge in ((alice, "a1-b1"), (bob, "a3-b3"), (alice, "b1-c1"), (bob, "b3-c3")):
        act(who, room, "move", edge=edge)
    assert act(alice, room, "offer", "takeback").status_code == 200
    assert act(bob, room, "answer", "takeback", answer="accept").status_code == 200
    room = fresh(room)
    assert moves(room) == ["a1-b1", "a3-b3"] and room.to_move == "blue"


def test_take_back_of_the_last_turn_alone_when_the_opponent_has_not_replied(room, alice, bob):
    act(alice, room, "move", edge="a1-b1")
    act(bob, room, "move", edge="a3-b3")
    act(bob, room, "offer", "takeback")
    act(alice, room, "answer", "takeback", answer="accept")
    room = fresh(room)
    assert moves(room) == ["a1-b1"] and room.to_move == "red"


def test_take_back_covers_a_whole_turn_of_several_edges(room, alice, bob):
    # Blue gives a box away; Red claims it and, still on turn, asks to take the turn back.
    for who, edge in zip(
        [alice, bob] * 4,
        ["a1-b1", "a3-b3", "b1-c1", "b3-c3", "a1-a2", "c2-c3", "a2-a3", "c1-c2"],
        strict=True,
    ):
        assert act(who, room, "move", edge=edge).status_code == 200
    act(alice, room, "move", edge="a2-b2")  # Blue opens: Red takes boxes
    act(bob, room, "move", edge="b1-b2")  # claims the bottom-left box
    room = fresh(room)
    assert room.to_move == "red"  # Red keeps the turn after claiming
    act(bob, room, "offer", "takeback")
    act(alice, room, "answer", "takeback", answer="accept")
    room = fresh(room)
    assert moves(room)[-1] == "a2-b2" and room.to_move == "red"
    assert room.game.red_score == 0


def test_a_declined_take_back_cannot_be_asked_again_at_once(room, alice, bob):
    act(alice, room, "move", edge="a1-b1")
    act(alice, room, "offer", "takeback")
    act(bob, room, "answer", "takeback", answer="decline")
    refused = act(alice, room, "offer", "takeback")
    assert refused.status_code == 409 and moves(fresh(room)) == ["a1-b1"]


def test_take_back_needs_something_of_ones_own_to_undo(room, bob):
    refused = act(bob, room, "offer", "takeback")
    assert refused.status_code == 409 and "not drawn anything" in refused.content.decode()


def test_rematch_swaps_who_moves_first_and_the_host_can_turn_that_off(room, alice, bob):
    act(alice, room, "resign")
    assert act(bob, room, "offer", "rematch").status_code == 200
    response = act(alice, room, "answer", "rematch", answer="accept")
    assert response.status_code == 200 and response["HX-Redirect"]
    first = Game.objects.get(rematch_of=room.game)
    assert (first.blue_name, first.red_name) == ("Bob", "Alice")
    assert first.blue_token == room.game.red_token
    again = Room.objects.get(game=first)
    assert again.host_side == "red"  # the host stays the host
    # In the rematch Alice hosts from Red; she keeps the same first player next time.
    assert act(bob, again, "swap", swap="").status_code == 403
    assert act(alice, again, "swap", swap="").status_code == 200
    act(alice, again, "resign")
    act(alice, again, "offer", "rematch")
    act(bob, again, "answer", "rematch", answer="accept")
    second = Game.objects.get(rematch_of=first)
    assert (second.blue_name, second.red_name) == ("Bob", "Alice")


def test_rematch_only_after_the_game_and_only_once(room, alice, bob):
    assert act(alice, room, "offer", "rematch").status_code == 409
    act(alice, room, "resign")
    act(alice, room, "offer", "rematch")
    act(bob, room, "answer", "rematch", answer="accept")
    refused = act(alice, room, "offer", "rematch")
    assert refused.status_code == 409 and Game.objects.filter(rematch_of=room.game).count() == 1


def test_a_new_visitor_joins_a_fresh_room_but_not_a_finished_one(db, alice, bob):
    room = open_room(alice)
    act(alice, room, "abort")
    refused = join(bob, room)
    assert refused.status_code == 409 and "over" in refused.content.decode()
