"""The time guarantee's rules, deterministically: what a stopped search answers.

Nothing here is timed (tests/bench/time_guarantee.py measures wall time, quiet
and loaded); these tests pin down what the engine plays when the clock or the
node limit stops it: what the solver proved, and always a legal move.
"""

from __future__ import annotations

import time

import pytest

from dotsboxes.engine import _bits, deadline, players, search, solver
from dotsboxes.engine.players import Game
from dotsboxes.engine.protocol import Session

from .test_players import random_position


@pytest.fixture(autouse=True)
def _forget_gaps():
    # The process remembers the scheduler's gaps for the next moves: keep these
    # tests' gaps away from the tests that follow in this process.
    yield
    deadline.forget()


def test_a_search_whose_deadline_is_gone_stops_at_once_with_a_legal_move():
    board = random_position(5, 5, 10, seed=2)
    # The Python search looks at the clock at its first node, the C search at its
    # 32nd (microseconds): neither finishes an iteration.
    result = search.python_search(board, max_nodes=10**9, deadline=time.perf_counter())
    assert result.edge in board.legal_moves
    assert result.stopped and result.depth == 0 and result.nodes <= 1
    result = search.search(board, max_nodes=10**9, deadline=time.perf_counter(), playouts=8)
    assert result.edge in board.legal_moves
    assert result.stopped and result.depth == 0 and result.nodes <= 40


@pytest.mark.parametrize("level", ["club", "expert", "master"])
@pytest.mark.parametrize("size", [(3, 3), (5, 5), (9, 9)])
def test_every_level_answers_a_legal_move_with_almost_no_time(level, size):
    for seed in range(3):
        board = random_position(*size, 2 * seed * size[0], seed=seed)
        edge = players.choose(board, level=level, budget=1e-6, seed=seed)
        assert edge in board.legal_moves


def test_a_rushed_master_still_plays_what_its_table_has_proved():
    # The game's table has settled the position one move ago: with a budget far
    # too small to settle it afresh (a millisecond at least of solver time), the
    # first solver round settles it again from the table.
    board = random_position(4, 4, 12, seed=3)  # about 47,000 solver nodes
    game = Game(megabytes=16)
    known = game.think(board, budget=5.0, hard_stop=False)
    assert known.exact and known.nodes > 10_000
    best = solver.solve(board).best
    deadline.forget()  # no earlier test's gaps
    rushed = game.think(board, budget=0.01)  # 6,800 nodes native, 510 Python
    assert rushed.exact and rushed.value == known.value and rushed.edge in best
    assert rushed.nodes < 1_000


def test_a_master_stopped_by_the_clock_never_plays_a_move_proved_worse():
    # The solver's rounds prove some moves worse before the clock stops them; the
    # search then chooses among the others only.
    board = random_position(5, 5, 24, seed=3)
    table = solver.Table(megabytes=16)
    solver.solve(board, max_nodes=20_000, table=table)
    bounds = solver.move_bounds(board, table)
    floor = max(lo for lo, _ in bounds.values())
    worse = {e for e, (_, hi) in bounds.items() if hi < floor}
    assert worse  # the test means something only if some move is proved worse
    game = Game(megabytes=16)
    game._tables[board.width, board.height] = table
    for budget in (1e-6, 1e-3, 0.01):
        assert game.think(board, budget=budget).edge not in worse


def test_move_bounds_past_their_deadline_know_nothing_but_name_every_move():
    board = random_position(3, 3, 8, seed=1)
    table = solver.Table(megabytes=4)
    solver.solve(board, table=table)
    n = board.unclaimed
    bounds = solver.move_bounds(board, table, deadline=time.perf_counter() - 1)
    assert set(bounds) == set(board.legal_moves)
    assert set(bounds.values()) == {(-n, n)}
    assert solver.move_bounds(board, table) != bounds  # in time, the table's proofs


def test_a_deadline_stops_two_gaps_and_the_slack_before_the_answer_is_due():
    due = time.perf_counter() + 10.0
    d = deadline.Deadline(due)
    d.late(0.5)  # a stop came half a second late: the scheduler's gap
    assert d.stop_at() == pytest.approx(due - 1.0 - deadline.SLACK)
    assert not d.passed()
    d.late(5.0)
    assert d.passed()  # two gaps of 5 s do not fit in what is left
    # The next move starts warned, and the warning fades with time, not with moves.
    assert deadline.Deadline(due).gap == pytest.approx(5.0, rel=0.01)
    assert deadline.Deadline(due).gap == pytest.approx(5.0, rel=0.01)
    assert deadline._recent_gap(time.perf_counter() + deadline.HALF_LIFE) == pytest.approx(
        2.5, rel=0.01
    )


def test_a_deadline_already_gone_has_passed_and_leaves_nothing():
    d = deadline.Deadline(time.perf_counter() - 0.001)
    assert d.passed() and d.left() == 0.0


def test_a_hint_with_almost_no_time_is_still_a_legal_move_with_a_reason():
    board = random_position(5, 5, 20, seed=4)
    h = players.hint(board, budget=1e-6)
    assert h.edge in board.legal_moves and h.reason


def test_the_protocol_builds_a_board_sizes_tables_when_given_the_size_not_at_its_first_go():
    # The symmetry tables of a size take milliseconds to build (tens on 9 x 9 in
    # Python): a first go must not pay them from its budget.
    _bits.geometry.cache_clear()
    Session().handle("size 6 4")
    before = _bits.geometry.cache_info()
    _bits.geometry(6, 4)
    after = _bits.geometry.cache_info()
    assert (after.hits, after.misses) == (before.hits + 1, before.misses)
