"""The board: drawing edges, claiming boxes, turns, the end of the game."""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError

import pytest

from dotsboxes.rules import (
    Board,
    Edge,
    IllegalMoveError,
    InvalidSizeError,
    Outcome,
    Player,
    RulesError,
)


def snapshot(board: Board) -> tuple:
    """Everything observable about a position and its history."""
    owners = tuple(board.owner(b) for b in range(board.num_boxes))
    return (
        board.key(),
        board.turn,
        board.scores,
        owners,
        tuple(board.move_stack),
        tuple(board.legal_moves),
        tuple(board.sides(b) for b in range(board.num_boxes)),
        board.is_over(),
        board.outcome(),
    )


def play_all(board: Board, *texts: str) -> list[tuple[int, ...]]:
    return [board.play(text) for text in texts]


def random_game(width: int, height: int, seed: int) -> Board:
    rng = random.Random(seed)
    board = Board(width, height)
    while not board.is_over():
        board.push(rng.choice(board.legal_moves))
    return board


def test_default_board_is_5_by_5_boxes_with_60_edges_and_blue_to_move():
    board = Board()
    assert (board.width, board.height, board.num_boxes) == (5, 5, 25)
    assert len(board.edges) == len(board.legal_moves) == 60
    assert board.size_text == "5 x 5 boxes (6 x 6 dots)"
    assert board.turn is Player.BLUE and board.scores == (0, 0)


@pytest.mark.parametrize(("width", "height"), [(1, 1), (9, 9), (9, 1), (2, 7)])
def test_every_size_from_1_to_9_boxes_has_the_right_number_of_edges(width, height):
    board = Board(width, height)
    assert len(board.edges) == (width + 1) * height + (height + 1) * width
    assert len(set(board.edges)) == len(board.edges)


@pytest.mark.parametrize("size", [(0, 5), (5, 10), (-1, 1), (5.0, 5), (True, 5), ("5", 5)])
def test_sizes_outside_1_to_9_boxes_are_rejected(size):
    with pytest.raises(InvalidSizeError) as info:
        Board(*size)
    assert isinstance(info.value, ValueError)
    assert "boxes" in str(info.value)


def test_a_box_drawn_by_different_players_belongs_to_whoever_drew_the_fourth_edge():
    board = Board(2, 1)
    # Blue, Red, Blue draw three sides of the left box; Red draws the fourth.
    assert play_all(board, "a1-b1", "a2-b2", "a1-a2") == [(), (), ()]
    assert board.turn is Player.RED
    assert board.play("b1-b2") == (0,)
    assert board.owner(0) is Player.RED and board.owner((0, 0)) is Player.RED
    assert board.owner(1) is None
    assert board.scores == (0, 1)


def test_a_box_whose_fourth_edge_blue_draws_is_blue_even_if_red_drew_three_sides():
    board = Board(3, 3)
    # Red draws three sides of the middle box, Blue answers elsewhere each time.
    play_all(board, "a1-b1", "b2-c2", "a4-b4", "b3-c3", "d1-d2", "b2-b3")
    assert board.turn is Player.BLUE
    assert board.sides(4) == 3
    assert board.play("c2-c3") == (4,)
    assert board.owner((1, 1)) is Player.BLUE


def test_the_shared_edge_of_two_three_sided_boxes_scores_2_and_keeps_the_turn_as_one_move():
    board = Board(3, 1)
    # Six moves that claim nothing leave boxes a and b with three sides each.
    play_all(board, "a1-b1", "b1-c1", "a2-b2", "b2-c2", "a1-a2", "c1-c2")
    assert board.turn is Player.BLUE
    assert (board.sides(0), board.sides(1), board.sides(2)) == (3, 3, 1)
    assert board.claims(Edge.parse("b1-b2")) == 2
    assert board.play("b1-b2") == (0, 1)
    assert board.scores == (2, 0)
    assert board.turn is Player.BLUE
    assert len(board.move_stack) == 7
    assert not board.is_over()


def test_a_claim_keeps_the_turn_and_a_move_that_claims_nothing_passes_it():
    board = Board(1, 2)
    play_all(board, "a1-b1", "a1-a2", "b1-b2")  # Blue, Red, Blue
    assert board.turn is Player.RED
    assert board.play("a2-b2") == (0,)  # Red closes the bottom box
    assert board.turn is Player.RED
    assert board.play("a2-a3") == ()  # and then claims nothing
    assert board.turn is Player.BLUE


def test_taking_a_box_is_never_compulsory():
    board = Board(2, 2)
    play_all(board, "a1-b1", "a2-b2", "a1-a2")
    assert board.turn is Player.RED and board.claims(Edge.parse("b1-b2")) == 1
    assert Edge.parse("b1-b2") in board.legal_moves
    assert board.play("c2-c3") == ()  # Red declines the box
    assert board.turn is Player.BLUE
    assert board.owner(0) is None


def test_the_last_edge_ends_the_game_and_not_before():
    board = Board(1, 1)
    play_all(board, "a1-b1", "a2-b2", "a1-a2")
    assert not board.is_over() and board.outcome() is None
    board.play("b1-b2")
    assert board.is_over() and board.legal_moves == []
    assert board.outcome() == Outcome(winner=Player.RED, blue=0, red=1)


def test_the_outcome_is_plain_data():
    outcome = random_game(3, 3, seed=1).outcome()
    assert isinstance(outcome, Outcome)
    assert outcome.blue + outcome.red == 9
    assert outcome.scores == (outcome.blue, outcome.red)
    assert not outcome.is_tie
    winner_score = outcome.blue if outcome.winner is Player.BLUE else outcome.red
    assert winner_score == max(outcome.scores)
    assert str(outcome) == f"{outcome.winner} wins, {max(outcome.scores)}-{min(outcome.scores)}"
    with pytest.raises(FrozenInstanceError):
        outcome.blue = 0  # type: ignore[misc]


@pytest.mark.parametrize("seed", range(40))
def test_a_5_by_5_game_always_ends_with_unequal_totals_summing_to_25(seed):
    outcome = random_game(5, 5, seed).outcome()
    assert outcome.blue + outcome.red == 25
    assert outcome.blue != outcome.red and outcome.winner is not None


def test_a_2_by_2_game_can_end_2_all():
    board = Board(2, 2)
    moves = "b2-c2 b2-b3 a2-a3 a2-b2 b1-b2 a1-a2 b3-c3 c2-c3 a1-b1 c1-c2 b1-c1 a3-b3"
    play_all(board, *moves.split())
    outcome = board.outcome()
    assert outcome == Outcome(winner=None, blue=2, red=2)
    assert outcome.is_tie and str(outcome) == "Tie, 2-2"


def test_drawing_an_edge_twice_is_rejected_naming_the_edge_and_the_position():
    board = Board(3, 3)
    play_all(board, "a1-b1", "b2-c2")
    before = snapshot(board)
    with pytest.raises(IllegalMoveError) as info:
        board.play("B1-A1")
    message = str(info.value)
    assert "a1-b1 is already drawn" in message
    assert board.key() in message and "3 x 3 boxes" in message and "Blue to move" in message
    assert isinstance(info.value, ValueError) and isinstance(info.value, RulesError)
    assert snapshot(board) == before


def test_a_rejected_move_after_a_claim_leaves_turn_scores_and_owners_exactly_as_before():
    board = Board(1, 2)
    play_all(board, "a1-b1", "a1-a2", "b1-b2", "a2-b2")
    assert board.scores == (0, 1)
    before = snapshot(board)
    for bad in ("a2-b2", "a1-a2", "c1-c2", "nonsense", Edge(5, 5, True)):
        with pytest.raises(RulesError):
            board.play(bad)
        assert snapshot(board) == before


def test_every_move_is_rejected_once_the_game_is_over():
    board = random_game(2, 2, seed=7)
    before = snapshot(board)
    for edge in board.edges:
        with pytest.raises(IllegalMoveError):
            board.play(edge)
    assert snapshot(board) == before


def test_pop_restores_every_earlier_position_exactly():
    rng = random.Random(5)
    board = Board(4, 3)
    history = [snapshot(board)]
    while not board.is_over():
        board.push(rng.choice(board.legal_moves))
        history.append(snapshot(board))
    while board.move_stack:
        history.pop()
        last = board.move_stack[-1]
        assert board.pop() == last
        assert snapshot(board) == history[-1]
    assert snapshot(board) == snapshot(Board(4, 3))


def test_pop_on_a_fresh_board_says_there_is_nothing_to_take_back():
    with pytest.raises(IndexError, match="no edge"):
        Board(2, 2).pop()


def test_push_and_play_agree():
    rng = random.Random(11)
    pushed, played = Board(3, 4), Board(3, 4)
    while not pushed.is_over():
        edge = rng.choice(pushed.legal_moves)
        assert pushed.push(edge) == played.play(str(edge))
        assert snapshot(pushed) == snapshot(played)


def test_the_position_key_rebuilds_the_position():
    board = random_game(4, 3, seed=3)
    for _ in range(7):
        board.pop()
    rebuilt = Board.from_key(board.key())
    assert rebuilt.key() == board.key()
    assert snapshot(rebuilt)[:4] == snapshot(board)[:4]
    assert rebuilt.legal_moves == board.legal_moves
    assert [rebuilt.sides(b) for b in range(12)] == [board.sides(b) for b in range(12)]
    assert rebuilt.move_stack == []


def test_the_position_key_is_one_bit_per_edge_horizontals_first():
    board = Board(2, 1)  # horizontals a1-b1 b1-c1 a2-b2 b2-c2, then verticals a1-a2 b1-b2 c1-c2
    board.play("b1-c1")  # horizontal index 1
    board.play("a1-a2")  # vertical index 4
    assert board.key() == f"2x1.{(1 << 1) | (1 << 4):x}.0.b"
    assert Board(2, 1).key() == "2x1.0.0.b"


@pytest.mark.parametrize(
    "key", ["", "5x5", "5x5.0.0.x", "5x5.zz.0.b", "1x1.1f.0.b", "1x1.0.1.b", "5x5.-1.0.b"]
)
def test_a_bad_position_key_is_rejected_naming_it(key):
    with pytest.raises(RulesError) as info:
        Board.from_key(key)
    assert repr(key) in str(info.value)


def test_copy_is_independent():
    board = Board(2, 2)
    board.play("a1-b1")
    copy = board.copy()
    copy.play("a2-b2")
    assert len(board.move_stack) == 1 and len(copy.move_stack) == 2
    assert board.copy(stack=False).move_stack == []


def test_the_text_picture_shows_edges_and_owners():
    board = Board(1, 1)
    play_all(board, "a1-b1", "a2-b2", "a1-a2", "b1-b2")
    assert str(board) == "+---+\n| R |\n+---+"
