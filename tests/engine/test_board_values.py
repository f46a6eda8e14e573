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
