"""What the rules page and the strategy guide say about their diagrams is what the
rules core, the engine's analysis and the solver find in those positions."""

# ruff: noqa: RUF001 - the texts use real typography (multiplication sign, en dash).

from __future__ import annotations

import pytest
from django.urls import reverse

from dotsboxes.engine.analysis import analyse
from dotsboxes.engine.solver import move_values
from dotsboxes.guide.lessons import CLOSEST_FINISH, count_game, rules_figures
from dotsboxes.guide.studies import BY_SLUG
from dotsboxes.rules import Board, Edge, Player


def test_the_closest_five_by_five_finish_is_a_finished_thirteen_twelve():
    board = BY_SLUG["thirteen-twelve"].board.copy()
    for edge in CLOSEST_FINISH.split():
        board.play(edge)
    assert board.is_over() and board.scores == (13, 12)


def test_the_rules_figures_show_what_their_captions_say():
    fig = rules_figures()
    assert len(fig["empty"].board.edges) == 60 and fig["empty"].board.num_boxes == 25
    assert fig["tie"].board.is_over() and fig["tie"].board.scores == (2, 2)
    assert "A tie on 2 × 2 boxes: 2–2." in fig["tie"].caption
    assert fig["closest"].board.is_over() and fig["closest"].board.scores == (13, 12)
    # the fourth side claims, for whoever draws it
    assert fig["fourth"].board.owner(0) is Player.RED
    # one edge, two boxes
    assert fig["double_before"].board.claims(Edge.parse("b1-b2")) == 2
    assert fig["double_after"].board.scores == (2, 0)
    # taking is optional: Red left two boxes that one edge now claims for Blue
    optional = fig["optional"].board
    assert optional.scores == (0, 1) and optional.turn is Player.BLUE
    assert optional.claims(Edge.parse("c1-c2")) == 2
    # no passing: Blue must draw, and every edge gives a box its third side
    no_pass = fig["no_pass"].board
    assert no_pass.turn is Player.BLUE and not analyse(no_pass).safe_edges
    # a claim keeps the move: Red claimed, then drew again
    again = fig["again"].board
    assert again.owner(0) is Player.RED and again.turn is Player.BLUE


def test_the_worked_count_is_right():
    board = count_game()
    # a real game with no double-cross so far: the dots form of the rule applies
    replay = Board(5, 5)
    for edge in board.move_stack:
        assert len(replay.play(edge)) < 2
    assert board.turn is Player.BLUE and board.scores == (5, 4)
    a = analyse(board)
    assert {str(e) for e in a.safe_edges} == {"a1-b1", "a1-a2", "e1-f1", "f1-f2"}
    for first in ("a1-b1", "a1-a2"):  # two safe moves, whichever edges are chosen
        for second in ("e1-f1", "f1-f2"):
            after = board.copy()
            after.play(first)
            after.play(second)
            end = analyse(after)
            assert not end.safe_edges
            assert sorted(c.length for c in end.components) == [1, 2, 2, 4, 7]
            assert end.long_chains == 2 and end.loops == 0
    assert (36 + 2) % 2 == 0  # even: the first player's wish, Blue is the first player
    values = move_values(board)
    best = max(values.values())
    assert {str(e) for e, v in values.items() if v == best} == {str(e) for e in a.safe_edges}
    blue_gets = (board.unclaimed + best) // 2
    assert (5 + blue_gets, 4 + board.unclaimed - blue_gets) == (16, 9)


@pytest.mark.django_db
def test_the_worked_count_and_its_result_are_on_the_page(client):
    html = client.get(reverse("guide:strategy")).content.decode()
    assert "36 + 2 = 38, even" in html
    assert "With best play Blue wins 16–9." in html
