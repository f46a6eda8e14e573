"""Chains, loops, safe edges, control: the analysis against hand-made positions
and against a brute-force oracle."""

from __future__ import annotations

import random

import pytest

from dotsboxes.engine.analysis import analyse, describe
from dotsboxes.rules import Board, Player

from .brute import brute_value


def board_with(width: int, height: int, edges: str) -> Board:
    board = Board(width, height)
    for text in edges.split():
        board.play(text)
    return board


def to_end_of_safe_phase(board: Board, rng: random.Random) -> Board:
    while True:
        safe = analyse(board).safe_edges
        if not safe:
            return board
        board.play(rng.choice(safe))


# A 3 x 1 strip with its top and bottom rows drawn: one chain of three boxes.
STRIP3 = "a1-b1 a2-b2 b1-c1 b2-c2 c1-d1 c2-d2"
# A 2 x 2 board with its outline drawn: one loop of four boxes.
OUTLINE2 = "a1-b1 b1-c1 a3-b3 b3-c3 a1-a2 a2-a3 c1-c2 c2-c3"


def test_an_empty_board_has_only_safe_edges_and_junctions():
    a = analyse(Board(3, 2))
    assert len(a.safe_edges) == len(Board(3, 2).edges)
    assert a.components == ()
    assert a.junctions == tuple(range(6))
    assert a.capturable == ()
    assert not a.loony
    assert a.phase == "safe"


@pytest.mark.parametrize(
    ("width", "height", "favoured"),
    [
        (5, 5, Player.BLUE),  # 36 dots: Blue wants dots + long chains even, so 0 long chains
        (3, 3, Player.BLUE),  # 16 dots
        (4, 4, Player.RED),  # 25 dots: with no long chain the sum is odd, Red's wish
        (2, 2, Player.RED),  # 9 dots
        (5, 4, Player.BLUE),  # 30 dots
    ],
)
def test_the_long_chain_rule_on_an_empty_board_follows_the_dot_count(width, height, favoured):
    assert analyse(Board(width, height)).favoured is favoured


def test_a_strip_with_both_rows_drawn_is_one_long_chain_from_border_to_border():
    a = analyse(board_with(3, 1, STRIP3))
    (chain,) = a.components
    assert (chain.kind, chain.length, chain.ends) == ("chain", 3, ("border", "border"))
    assert chain.boxes in ((0, 1, 2), (2, 1, 0))
    assert {str(e) for e in chain.edges} == {"a1-a2", "b1-b2", "c1-c2", "d1-d2"}
    assert a.safe_edges == ()
    assert a.long_chains == 1 and a.loops == 0
    assert a.phase == "endgame"


def test_whoever_must_open_the_only_chain_loses_it_all():
    board = board_with(3, 1, STRIP3)
    a = analyse(board)
    assert a.turn is Player.BLUE
    assert a.controller is Player.RED
    assert a.controlled_value == 3
    assert a.endgame_value == -3 == brute_value(board)


def test_a_drawn_outline_leaves_a_loop_of_four():
    board = board_with(2, 2, OUTLINE2)
    a = analyse(board)
    (loop,) = a.components
    assert (loop.kind, loop.length, loop.ends) == ("loop", 4, ())
    assert a.loops == 1 and a.long_chains == 0
    assert a.controlled_value == 4
    assert a.endgame_value == -4 == brute_value(board)


def test_an_opened_chain_is_capturable_and_loony():
    board = board_with(3, 1, STRIP3 + " a1-a2")
    a = analyse(board)
    (chain,) = a.components
    assert chain.ends == ("opened", "border") and chain.opened
    assert a.capturable == (0,)
    assert a.loony
    assert a.controller is a.turn
    assert a.endgame_value == 3


def test_a_two_chain_handed_out_in_the_middle_cannot_be_declined():
    board = board_with(2, 1, "a1-b1 a2-b2 b1-c1 b2-c2 b1-b2")
    a = analyse(board)
    assert sorted(c.length for c in a.components) == [1, 1]
    assert len(a.capturable) == 2
    assert not a.loony


def test_a_two_chain_opened_at_its_end_can_be_declined():
    board = board_with(2, 1, "a1-b1 a2-b2 b1-c1 b2-c2 a1-a2")
    a = analyse(board)
    (chain,) = a.components
    assert (chain.length, chain.ends) == (2, ("opened", "border"))
    assert a.loony


def test_a_box_with_three_or_four_strings_is_a_junction_where_chains_meet():
    # 3 x 1: the middle box has only its top drawn; the end boxes have two sides each.
    board = board_with(3, 1, "a1-b1 a2-b2 c1-d1 c2-d2 b2-c2")
    a = analyse(board)
    assert a.junctions == (1,)
    assert [sorted(c.ends) for c in a.components] == [["border", "junction"]] * 2
    assert a.endgame_value is None  # not a simple endgame: the junction links them
    assert [str(e) for e in a.safe_edges] == ["b1-c1"]  # the junction's border side


def test_safe_edges_are_exactly_the_edges_that_create_no_third_side():
    rng = random.Random(7)
    for _ in range(20):
        board = Board(4, 3)
        for _ in range(rng.randrange(0, 16)):
            board.play(rng.choice(board.legal_moves))
        safe = set(analyse(board).safe_edges)
        for edge in board.legal_moves:
            board.push(edge)
            third = any(board.sides(b) == 3 for b in board.edge_boxes(edge))
            claims = board.last_claimed
            board.pop()
            assert (edge in safe) == (not third and not claims), (board, edge)


def test_components_partition_the_boxes_with_two_or_three_sides():
    rng = random.Random(11)
    for _ in range(30):
        board = Board(4, 4)
        for _ in range(rng.randrange(10, 40)):
            if board.is_over():
                break
            board.play(rng.choice(board.legal_moves))
        a = analyse(board)
        listed = [b for c in a.components for b in c.boxes]
        assert len(listed) == len(set(listed))
        assert set(listed) == {b for b in range(16) if board.sides(b) in (2, 3)}
        for c in a.components:
            if c.kind == "loop":
                assert c.length >= 4 and c.ends == ()
            else:
                assert len(c.ends) == 2


@pytest.mark.parametrize("size", [(3, 2), (3, 3), (4, 2)])
def test_simple_endgame_values_match_a_brute_force_search(size):
    rng = random.Random(size[0] * 10 + size[1])
    checked = 0
    for _ in range(12):
        board = to_end_of_safe_phase(Board(*size), rng)
        a = analyse(board)
        if a.endgame_value is None:
            assert a.junctions
            continue
        assert a.endgame_value == brute_value(board), board.key()
        checked += 1
        # Hand out something, and check the opened position too.
        board.play(rng.choice(board.legal_moves))
        if not board.is_over():
            assert analyse(board).endgame_value == brute_value(board), board.key()
    assert checked >= 4


def test_describe_names_the_components_and_who_is_in_control():
    text = describe(analyse(board_with(3, 1, STRIP3)))
    assert "chain 3" in text
    assert "0 safe edges" in text
    assert "Red in control" in text
    assert describe(analyse(board_with(1, 1, "a1-b1 a2-b2 a1-a2 b1-b2"))) == "game over"
