"""The analysis board's two passes: exact where the solver settles, estimates within a time cap."""

from __future__ import annotations

import time

from dotsboxes.engine import board_values, solver
from dotsboxes.rules import Board


def test_a_small_position_gets_every_edge_exactly_in_the_quick_pass():
    board = Board(2, 2)
    board.play("a1-b1")
    result = board_values.quick(board.key())
    assert result["exact"] and result["level"] == "quick"
    expected = {str(e): v for e, v in solver.move_values(board).items()}
    assert result["values"] == expected
    assert sorted(result["exact_edges"]) == sorted(expected)
    assert result["best"] == sorted(e for e, v in expected.items() if v == max(expected.values()))
    assert result["pv"][0] in result["best"]


def test_the_deep_pass_keeps_to_its_time_cap_and_labels_what_it_could_not_settle():
    # The empty 5 x 5 board is far beyond the solver: every edge still gets a value,
    # none of them is called exact, and the pass ends near its cap (slack for a busy machine).
    key = Board(5, 5).key()
    solver.clear_cache()
    started = time.perf_counter()
    result = board_values.deep(key, budget=1.0)
    elapsed = time.perf_counter() - started
    assert elapsed < 3.0, elapsed
    assert len(result["values"]) == 60
    assert not result["exact"] and result["exact_edges"] == []
    assert result["level"] == "deep" and result["summary"]


def test_the_quick_pass_asks_the_solver_first_where_its_model_says_it_settles():
    # Issue 23: on a fresh server the empty 3 x 3 board got "+3 (estimate)" on every
    # edge, the search's sign-wrong guess; the solver settles it (-3) in about a second.
    # Node counts decide, not the clock: no hard stop, so a loaded machine gives the same.
    solver.clear_cache()
    board = Board(3, 3)
    result = board_values.quick(board.key(), safety=None)
    assert result["exact"], result
    expected = {str(e): v for e, v in solver.move_values(board).items()}
    assert result["values"] == expected
    assert set(expected.values()) == {-3}


def test_every_quick_estimate_comes_from_a_search_never_a_default():
    # A search that never finished an iteration answers 0, a default, not an estimate:
    # that was every edge of 9 x 9 (150 nodes do not cover one ply), and every edge
    # valued after the quick pass's deadline.  Estimates are node-limited now, so the
    # clock no longer changes them.
    key = Board(5, 5).key()
    assert board_values.quick(key, budget=0.0001)["values"] == board_values.quick(key)["values"]
    nine = board_values.quick(Board(9, 9).key())
    assert len(nine["values"]) == 180 and not nine["exact"]
    assert 0 not in nine["values"].values(), nine["values"]
