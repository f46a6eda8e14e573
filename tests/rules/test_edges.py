"""Dot-pair notation: reading and writing edges."""

from __future__ import annotations

import pytest

from dotsboxes.rules import Board, Edge, InvalidEdgeError, RulesError


def test_bottom_side_of_the_bottom_left_box_is_a1_b1():
    assert Edge.parse("a1-b1") == Edge(0, 0, horizontal=True)
    assert str(Edge(0, 0, horizontal=True)) == "a1-b1"


def test_left_side_of_the_bottom_left_box_is_a1_a2():
    assert Edge.parse("a1-a2") == Edge(0, 0, horizontal=False)
    assert str(Edge(0, 0, horizontal=False)) == "a1-a2"


@pytest.mark.parametrize("text", ["b1-a1", "B1-A1", "  a1-b1  ", "A1 - b1", "\tb1-A1\n"])
def test_parsing_accepts_either_dot_order_upper_case_and_spaces(text):
    assert Edge.parse(text) == Edge.parse("a1-b1")
    assert str(Edge.parse(text)) == "a1-b1"


def test_str_is_canonical_lower_or_left_dot_first():
    assert str(Edge.parse("j10-j9")) == "j9-j10"
    assert str(Edge.parse("E4-D4")) == "d4-e4"


def test_repr_evaluates_back_to_the_edge():
    edge = Edge.parse("c3-d3")
    assert eval(repr(edge), {"Edge": Edge}) == edge


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("a1-b2", "diagonal"),
        ("b2-a1", "diagonal"),
        ("a1-c1", "not neighbours"),
        ("a1-a3", "not neighbours"),
        ("a1-a1", "same dot"),
        ("k1-k2", "off every board"),
        ("a11-a12", "off every board"),
        ("a0-a1", "off every board"),
        ("hello", "not an edge"),
        ("", "not an edge"),
        ("a1b1", "not an edge"),
        ("a1-", "not an edge"),
        ("1a-1b", "not an edge"),
        ("a1--b1", "not an edge"),
        ("a01-b1", "not an edge"),
        ("a 1-b1", "not an edge"),
        ("a1-b1-c1", "not an edge"),
        ("a1,b1", "not an edge"),
        # Other scripts' digits are not notation, though int() reads "1\u0660" as 10.
        ("a1\u0660-b1\u0660", "not an edge"),
        ("a1\uff10-a9", "not an edge"),
    ],
)
def test_parsing_rejects_bad_text_with_a_value_error_naming_the_input(text, reason):
    with pytest.raises(InvalidEdgeError) as info:
        Edge.parse(text)
    assert isinstance(info.value, ValueError) and isinstance(info.value, RulesError)
    assert repr(text.strip()) in str(info.value)
    assert reason in str(info.value)


def test_parsing_rejects_something_that_is_not_text():
    with pytest.raises(InvalidEdgeError, match="not 42"):
        Edge.parse(42)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["f1-g1", "G1-f1", "a6-a7", " F6-F7 "])
def test_a_dot_off_the_given_board_is_rejected_by_parse_edge_naming_input_and_dot(text):
    board = Board(5, 5)  # dots a1 to f6
    with pytest.raises(InvalidEdgeError) as info:
        board.parse_edge(text)
    message = str(info.value)
    assert repr(text.strip()) in message
    assert "5 x 5 boxes" in message and "f6" in message


def test_a_dot_off_the_given_board_is_rejected_by_play_and_changes_nothing():
    board = Board(2, 3)
    board.play("a1-b1")
    before = board.key(), board.move_stack
    with pytest.raises(InvalidEdgeError, match=r"'d1-c1' is not on this 2 x 3 boxes"):
        board.play("d1-c1")
    with pytest.raises(InvalidEdgeError, match=r"dot a5 is off"):
        board.play("a4-a5")
    assert (board.key(), board.move_stack) == before


def test_the_top_right_edges_of_a_rectangular_board_are_on_it():
    board = Board(3, 2)  # dots a1 to d3
    assert board.parse_edge("c3-d3") == Edge(2, 2, True)
    assert board.parse_edge("d2-d3") == Edge(3, 1, False)
    with pytest.raises(InvalidEdgeError):
        board.parse_edge("d3-d4")


@pytest.mark.parametrize("edge", [Edge(10, 0, False), Edge(-1, 0, True), Edge(9, 9, True)])
def test_an_edge_off_every_board_prints_as_a_tuple_and_is_refused_plainly(edge):
    assert str(edge) == repr(edge) == f"Edge({edge.x}, {edge.y}, horizontal={edge.horizontal})"
    with pytest.raises(InvalidEdgeError, match=r"Edge\(.* is not on this 9 x 9 boxes"):
        Board(9, 9).play(edge)
