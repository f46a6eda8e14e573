"""Computer levels: legal, deterministic, and as knowledgeable as each level claims."""

from __future__ import annotations

import random
import time

import pytest

from dotsboxes.engine import players, search
from dotsboxes.engine.analysis import analyse, arrays
from dotsboxes.engine.players import LEVELS, choose, default_budget, hint
from dotsboxes.rules import Board

from .brute import brute_move_values

SMALL = 0.05  # seconds: keeps the suite fast; node limits scale with it
# Tests of what a level plays pass hard_stop=False: the node limits decide the
# move, and a test machine loaded enough to reach the hard stop cannot change it.


def random_position(width: int, height: int, moves: int, seed: int) -> Board:
    rng = random.Random(seed)
    board = Board(width, height)
    for _ in range(moves):
        if board.is_over():
            break
        board.play(rng.choice(board.legal_moves))
    return board


def simple_endgames(count: int, seed: int, *, size=(3, 3)):
    """Junction-free positions at the end of the safe phase, some of them opened."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = Board(*size)
        while analyse(board).safe_edges:
            board.play(rng.choice(analyse(board).safe_edges))
        if analyse(board).junctions:
            continue
        if rng.random() < 0.5:
            board.play(rng.choice(board.legal_moves))  # hand something out
        if not board.is_over():
            found.append(board)
    return found


def chain_of_three_and_a_single_box() -> Board:
    """4 x 1 boxes, Red to move: a chain of three (a1-a2 to c1-d1) and a lone corner box."""
    board = Board(4, 1)
    for text in ["a1-b1", "a2-b2", "b1-c1", "b2-c2", "c2-d2", "d1-d2", "d2-e2"]:
        board.play(text)
    a = analyse(board)
    assert sorted(c.length for c in a.components) == [1, 3] and not a.safe_edges
    return board


def test_the_five_levels_are_listed_weakest_first():
    assert LEVELS == ("beginner", "casual", "club", "expert", "master")
    assert players.DEFAULT_LEVEL in LEVELS


def test_an_unknown_level_or_a_finished_game_is_a_value_error():
    with pytest.raises(ValueError, match="unknown level"):
        choose(Board(2, 2), level="grandmaster")
    finished = random_position(1, 1, 4, 0)
    assert finished.is_over()
    for level in LEVELS:
        with pytest.raises(ValueError, match="game is over"):
            choose(finished, level=level, budget=SMALL)


def test_the_master_gets_two_seconds_per_move_on_five_by_five_by_default():
    assert default_budget("master", Board(5, 5)) == 2.0
    assert default_budget("master", Board(3, 3)) < default_budget("master", Board(7, 7))
    with pytest.raises(ValueError):
        default_budget("nobody", Board(5, 5))


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_whole_games_with_legal_moves(level):
    board = Board(3, 2)
    while not board.is_over():
        board.play(choose(board, level=level, budget=SMALL, seed=3))  # play() checks legality
    assert board.outcome() is not None


@pytest.mark.parametrize("level", LEVELS)
def test_same_position_seed_and_budget_give_the_same_move(level):
    # The node limits decide the move; without the hard stop (which only a
    # loaded machine reaches) nothing else can change it.
    for moves in (0, 25, 34):
        board = random_position(5, 5, moves, seed=moves)
        first = choose(board, level=level, budget=SMALL, seed=5, hard_stop=False)
        for _ in range(2):
            assert choose(board, level=level, budget=SMALL, seed=5, hard_stop=False) == first


def test_different_seeds_vary_the_opening_moves():
    board = Board(5, 5)
    moves = {choose(board, level="casual", seed=s) for s in range(8)}
    assert len(moves) > 1


def test_beginners_take_what_they_are_offered():
    board = Board(2, 1)
    for text in ("a1-b1", "a2-b2", "a1-a2"):
        board.play(text)
    assert choose(board, level="beginner", seed=1).__str__() == "b1-b2"


def test_casual_players_never_draw_a_third_side_while_a_safe_edge_remains():
    for seed in range(10):
        board = random_position(4, 4, 10, seed)
        if analyse(board).capturable:
            continue
        safe = analyse(board).safe_edges
        if safe:
            assert choose(board, level="casual", seed=seed) in safe


def test_casual_players_forced_to_give_boxes_give_the_fewest():
    # A chain of three and a single box, nothing safe: the single box is the cheaper gift.
    board = chain_of_three_and_a_single_box()
    assert not analyse(board).safe_edges
    assert str(choose(board, level="casual", seed=0)) in ("d1-e1", "e1-e2")


@pytest.mark.parametrize("level", ["club", "expert", "master"])
def test_knowing_levels_play_simple_endgames_perfectly(level):
    for board in simple_endgames(6, seed=len(level)):
        values = brute_move_values(board)
        edge = choose(board, level=level, budget=SMALL, seed=1, hard_stop=False)
        assert values[edge] == max(values.values()), (level, board.key(), edge)


def test_club_declines_the_last_two_boxes_when_control_is_worth_it():
    # 4 x 3 boxes: three horizontal chains of four; Red has opened the bottom one.
    board = Board(4, 3)
    rows = ["a1-b1 b1-c1 c1-d1 d1-e1", "a2-b2 b2-c2 c2-d2 d2-e2"]
    rows += ["a3-b3 b3-c3 c3-d3 d3-e3", "a4-b4 b4-c4 c4-d4 d4-e4"]
    for text in " ".join(rows).split():
        board.push(board.parse_edge(text))
    board.push(board.parse_edge("a1-a2"))  # the opening of the bottom chain
    values = brute_move_values(board)
    assert analyse(board).loony
    # Take two boxes, then double-deal: the engine takes one box at a time.
    line = []
    while analyse(board).capturable:
        edge = choose(board, level="club", seed=0, hard_stop=False)
        line.append(str(edge))
        if not board.push(edge):
            break
    # Two boxes taken, then the double-dealing move at the far end of the chain.
    assert line == ["b1-b2", "c1-c2", "e1-e2"]
    # Declining twice nets 2 - 2 each time, then the last chain: +4.  Taking all
    # four now would hand over control and net 4 - 4 = 0.
    assert max(values.values()) == 4


def test_club_steers_the_long_chain_count_to_the_parity_that_gives_it_control():
    # 3 x 3, Red to move, five safe edges: a4-b4 alone wins (+5); it makes a long
    # chain whose count leaves the long-chain rule favouring Red.
    board = Board.from_key("3x3.933130.0.r")
    values = brute_move_values(board)
    assert [str(e) for e, v in values.items() if v == max(values.values())] == ["a4-b4"]
    # Its leaves are random completions, so a seed may mislead it (about 1 in 10
    # with either search core); nearly every seed must find the move.
    chosen = [str(choose(board, level="club", seed=seed, hard_stop=False)) for seed in range(40)]
    assert chosen.count("a4-b4") >= 34, chosen
    board.push(board.parse_edge("a4-b4"))
    after = analyse(board)
    assert after.long_chains == 1 and after.favoured == board.turn.other


def test_club_forced_to_hand_out_opens_the_shortest_chain():
    board = chain_of_three_and_a_single_box()
    for seed in range(3):
        assert str(choose(board, level="club", seed=seed, hard_stop=False)) in ("d1-e1", "e1-e2")


def test_masters_find_an_optimal_move_when_the_position_is_small():
    for seed in range(6):
        board = random_position(3, 2, 6, seed)
        values = brute_move_values(board)
        edge = choose(board, level="master", budget=0.3, seed=seed, hard_stop=False)
        assert values[edge] == max(values.values()), (board.key(), edge)


def test_a_hint_explains_a_safe_opening_move():
    h = hint(Board(5, 5), budget=SMALL, hard_stop=False)
    assert h.edge in Board(5, 5).legal_moves
    assert h.reason.startswith("safe: creates no third side")


def test_a_hint_says_to_take_an_offered_box():
    board = Board(2, 2)
    for text in ("a1-b1", "a2-b2", "a1-a2"):
        board.play(text)
    h = hint(board, budget=SMALL, hard_stop=False)
    assert str(h.edge) == "b1-b2"
    assert h.reason.startswith("take the box")


def test_a_hint_with_only_chains_left_says_which_to_open():
    board = chain_of_three_and_a_single_box()
    h = hint(board, budget=SMALL, hard_stop=False)
    assert str(h.edge) in ("d1-e1", "e1-e2")
    assert h.reason.startswith("open the shortest chain (1 box)")
    # Give the single box away, then receive the chain of three: 3 - 1.
    assert h.value == 2 == max(brute_move_values(board).values())


def test_a_hint_says_to_decline_the_last_two_boxes_to_keep_control():
    # Three chains of four; the first was opened and two of its boxes taken.
    board = Board(4, 3)
    rows = "a1-b1 b1-c1 c1-d1 d1-e1 a2-b2 b2-c2 c2-d2 d2-e2 a3-b3 b3-c3 c3-d3 d3-e3"
    for text in (rows + " a4-b4 b4-c4 c4-d4 d4-e4 a1-a2 b1-b2 c1-c2").split():
        board.push(board.parse_edge(text))
    h = hint(board, budget=SMALL, hard_stop=False)
    assert str(h.edge) == "e1-e2"
    assert h.reason.startswith("decline the last two boxes to keep control")


def test_the_hard_stop_answers_with_a_legal_move_when_the_clock_has_run_out():
    # The node limit would allow a long search; a deadline already passed stops
    # it at the first look at the clock, and the answer is still a legal move.
    board = random_position(5, 5, 10, seed=2)
    result = search.search(board, max_nodes=10**9, deadline=time.perf_counter(), playouts=8)
    assert result.edge in board.legal_moves
    assert result.nodes < 200


def test_a_leaf_valued_by_safe_phase_completions_is_exact_when_the_end_is_forced():
    # 3 x 2, Blue to move, one safe edge left (a1-a2): drawing it closes a loop
    # of six that Blue must then open.  Every completion ends there, so their
    # value is the exact value of the position.
    board = Board.from_key("3x2.131d7.0.b")
    assert [str(e) for e in analyse(board).safe_edges] == ["a1-a2"]
    g, drawn, sides = arrays(board)
    leaf = search._Searcher(g, drawn, sides, max_nodes=100, deadline=None, playouts=4)
    assert leaf.completion_value() == max(brute_move_values(board).values()) == 6
