"""The exact solver against published values and against a plain brute force.

Every shortcut the solver takes from the theory (captures, declines, loony
endgames by formula, symmetries) is checked here against a reference negamax
that knows nothing but the rules, over many random small positions.
"""

from __future__ import annotations

import random
import time
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dotsboxes.engine import analysis, solver
from dotsboxes.engine._bits import geometry
from dotsboxes.engine.solver import Solution, loony_value, move_values, solve, value
from dotsboxes.rules import Board, Edge


def reference_move_values(board: Board) -> dict[Edge, int]:
    """Brute-force negamax over every edge, memoised on the drawn edges only.

    Knows nothing but the rules: an edge claims the boxes whose four sides it
    completes, and the turn passes only when it claims none.
    """
    index = {e: i for i, e in enumerate(board.edges)}
    boxes = [sum(1 << index[e] for e in board.box_edges(b)) for b in range(board.num_boxes)]
    touching = [[m for m in boxes if m >> i & 1] for i in range(len(board.edges))]

    def move(bits: int, i: int) -> int:
        after = bits | 1 << i
        claimed = sum(1 for m in touching[i] if after & m == m)
        rest = best(after)
        return claimed + rest if claimed else -rest

    @cache
    def best(bits: int) -> int:
        free = [i for i in range(len(board.edges)) if not bits >> i & 1]
        return max((move(bits, i) for i in free), default=0)

    bits = board.edge_bits
    return {e: move(bits, index[e]) for e in board.legal_moves}


def random_position(rng: random.Random, width: int, height: int, undrawn: int) -> Board:
    """A position with ``undrawn`` edges left, reached by a random playout.

    Half the playouts avoid third sides while they can, as players do, so that
    long chains, loops and loony endgames are common; the rest draw anything.
    """
    board = Board(width, height)
    careful = rng.random() < 0.5
    while len(board.legal_moves) > undrawn:
        moves = board.legal_moves
        if careful:
            safe = [e for e in moves if all(board.sides(b) < 2 for b in board.edge_boxes(e))]
            moves = safe or moves
        board.push(rng.choice(moves))
    return board


# -- known values -----------------------------------------------------------------

EMPTY_BOARD_VALUES = [
    (1, 1, -1),
    (2, 1, 0),
    (3, 1, -1),
    (4, 1, 0),
    (2, 2, 2),
    (3, 2, -2),
]


@pytest.mark.parametrize(("width", "height", "expected"), EMPTY_BOARD_VALUES)
def test_empty_boards_have_their_published_values(width, height, expected):
    solver.clear_cache()
    assert solve(Board(width, height)).value == expected
    solver.clear_cache()
    assert value(Board(height, width)) == expected  # the same board turned a quarter


def test_on_two_by_two_outer_first_edges_keep_plus_two_and_inner_ones_give_zero():
    board = Board(2, 2)
    values = move_values(board)
    for edge, v in values.items():
        outer = len(board.edge_boxes(edge)) == 1
        assert v == (2 if outer else 0), edge
    assert set(solve(board).best) == {e for e, v in values.items() if v == 2}


def test_a_finished_game_has_value_zero_and_no_moves():
    board = Board(1, 1)
    for edge in list(board.legal_moves):
        board.push(edge)
    assert solve(board) == Solution(0, (), 0)
    assert move_values(board) == {}


def test_claimed_boxes_do_not_count_in_the_value():
    # Blue takes a box on a 2 x 1 board; the value only concerns the other box.
    board = Board(2, 1)
    for text in ("a1-b1", "a2-b2", "a1-a2", "b1-b2"):
        board.play(text)
    assert board.scores == (0, 1)  # Red closed the box with b1-b2 and moves again
    assert value(board) == 1  # one box left, one side drawn: whoever moves now gets it
    assert set(move_values(board).values()) == {1}


# -- the loony endgame formula ------------------------------------------------------


@pytest.mark.parametrize(
    ("components", "expected"),
    [
        (((0, 3),), -3),  # one chain: the opponent takes it all
        (((0, 3), (0, 3)), -2),  # take 1, decline 2, then take 3
        (((1, 4),), -4),
        (((0, 3), (1, 4)), -1),  # open the loop first: the opponent takes it and opens the chain
        (((0, 1), (0, 1)), 0),
        (((0, 2), (0, 3)), 1),  # sacrifice the 2-chain so the opponent must open the 3
    ],
)
def test_simple_loony_endgames_match_hand_counted_values(components, expected):
    assert loony_value(components) == expected


# -- against the brute force --------------------------------------------------------


@pytest.mark.parametrize(("width", "height"), [(2, 2), (3, 2), (2, 3), (3, 3), (4, 2)])
def test_values_and_best_moves_agree_with_brute_force_on_random_positions(width, height):
    rng = random.Random(f"solver-{width}x{height}")
    for _ in range(30):
        board = random_position(rng, width, height, undrawn=rng.randint(4, 12))
        expected = reference_move_values(board)
        solver.clear_cache()
        got = move_values(board)
        assert got == expected, board.key()
        solution = solve(board)
        top = max(expected.values())
        assert solution.value == top, board.key()
        assert solution.best == tuple(e for e in board.legal_moves if expected[e] == top)


@settings(max_examples=40, deadline=None)
@given(
    size=st.sampled_from([(2, 2), (3, 2), (2, 3), (3, 3)]),
    seed=st.integers(0, 2**32),
    undrawn=st.integers(1, 12),
)
def test_the_shared_table_never_changes_an_answer(size, seed, undrawn):
    # No clearing between examples: entries left by earlier positions are reused.
    board = random_position(random.Random(seed), *size, undrawn=undrawn)
    assert move_values(board) == reference_move_values(board)


# -- budgets ------------------------------------------------------------------------


def test_an_unfinished_search_returns_none_within_its_budget():
    solver.clear_cache()
    start = time.perf_counter()
    assert solve(Board(5, 5), budget=0.05) is None
    assert time.perf_counter() - start < 1.0  # generous: the machine may be shared
    assert solve(Board(5, 5), max_nodes=500) is None
    assert move_values(Board(5, 5), budget=0.02) is None
    assert value(Board(5, 5), budget=0.02) is None


# -- the theory behind the shortcuts ---------------------------------------------------


@pytest.mark.parametrize(("width", "height", "count"), [(3, 3, 8), (4, 3, 4), (2, 2, 8), (5, 2, 4)])
def test_symmetries_map_the_board_onto_itself_and_share_one_canonical_key(width, height, count):
    # A symmetry that is secretly the identity would pass every value test and
    # only cost speed: check each one moves edges and keeps boxes whole.
    geo = geometry(width, height)
    assert len(geo.symmetries) == count
    assert len(set(geo.symmetries)) == count
    for perm, boxes in zip(geo.symmetries, geo.box_perms, strict=True):
        assert sorted(perm) == list(range(geo.n_edges))
        for b, mask in enumerate(geo.box_mask):
            image = sum(1 << perm[e] for e in range(geo.n_edges) if mask >> e & 1)
            assert image == geo.box_mask[boxes[b]]
    rng = random.Random(f"symmetry-{width}x{height}")
    for _ in range(20):
        drawn = random_position(rng, width, height, rng.randint(0, geo.n_edges)).edge_bits
        keys = set()
        for perm in geo.symmetries:
            image = sum(1 << perm[e] for e in range(geo.n_edges) if drawn >> e & 1)
            keys.add(geo.canonical(image)[0])
        assert len(keys) == 1


def test_opening_a_long_chain_gives_the_opener_at_most_two_minus_its_length():
    # The solver skips a loony move once it has a move worth its bound: check the
    # bound itself against the brute force (loops: four minus their length).
    rng = random.Random("loony-bound")
    checked = 0
    for _ in range(300):
        board = random_position(rng, 3, 2, undrawn=rng.randint(5, 11))
        if board.legal_moves and any(board.sides(b) == 3 for b in range(board.num_boxes)):
            continue  # quiet positions only
        g, drawn, sides = analysis.arrays(board)
        values = None
        for comp in analysis.raw_components(g, drawn, sides):
            if comp.length < 3 or comp.opened:
                continue
            values = values or reference_move_values(board)
            cap = (2 if comp.kind == "chain" else 4) - comp.length
            edges = comp.inner + tuple(e for e in comp.end_edges if e >= 0)
            for e in edges:
                assert values[board.edges[e]] <= cap, (board.key(), e)
                checked += 1
    assert checked > 20
