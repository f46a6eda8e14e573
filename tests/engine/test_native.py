"""The native solver core (C) against the Python core, and its handling of bad input.

The differential test runs both cores over a few thousand positions (sizes
1 x 1 to 5 x 5 and 3 x 7, random and from engine games); the full 20,000+ is
``tests/bench/native.py diff``.  In CI (``CI=true``) the extension must have
been built: a missing compiler there is a failure, not a quiet fallback.
"""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from dotsboxes.engine import _backend, backend_name, solver
from dotsboxes.engine._bits import geometry
from dotsboxes.rules import Board

from .differential import backend, check, positions

native = _backend.native
needs_native = pytest.mark.skipif(native is None, reason="the C extension was not built")
FORCED = (os.environ.get("DOTSBOXES_ENGINE_BACKEND") or "auto").lower()


def test_ci_builds_the_extension_and_auto_uses_it():
    if os.environ.get("CI") != "true":
        pytest.skip("only CI insists on the compiled core")
    assert native is not None, "CI must build dotsboxes.engine._native (pip install -e .)"
    assert backend_name() == ("python" if FORCED == "python" else "native")


def test_the_backend_setting_is_honoured():
    if FORCED in ("native", "python"):
        assert backend_name() == FORCED
    else:
        assert backend_name() == ("native" if native is not None else "python")


CHUNKS = 8
PER_CHUNK = 250  # 2,000 positions, about 70 s of CPU


@needs_native
@pytest.mark.skipif(
    FORCED == "python" or (os.environ.get("CI") == "true" and FORCED != "native"),
    reason="runs both cores itself: once per CI run (the one with the native backend forced)",
)
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_both_cores_give_the_same_values_best_moves_and_sound_bounds(chunk):
    problems = []
    for i, board in enumerate(positions(PER_CHUNK, seed=chunk)):
        problems += check(board, i)
    assert not problems, problems[:5]


@needs_native
def test_the_native_core_takes_boards_up_to_7x7_and_leaves_larger_ones_to_python():
    assert _backend.fits(geometry(7, 7)) and _backend.fits(geometry(9, 5))
    assert not _backend.fits(geometry(8, 8)) and not _backend.fits(geometry(9, 9))
    with backend("native"):
        assert isinstance(solver._start(Board(7, 7), None, None), native.Search)
        assert isinstance(solver._start(Board(9, 9), None, None), solver._Search)
        # A 7 x 7 endgame, solved natively, agrees with Python.
        board = Board(7, 7)
        rng = __import__("random").Random(5)
        while len(board.legal_moves) > 14:
            board.push(rng.choice(board.legal_moves))
        native_solution = solver.solve(board, table=solver.Table())
    with backend("python"):
        python_solution = solver.solve(board, table=solver.Table())
    assert native_solution.value == python_solution.value
    assert set(native_solution.best) == set(python_solution.best)


@needs_native
def test_bad_input_raises_python_exceptions():
    geo = _backend.native_geometry(geometry(3, 3))
    table = native.Table(10_000)
    with pytest.raises(ValueError, match="beyond"):
        native.Search(table, geo, 1 << 40)  # an edge set from a larger board
    with pytest.raises(ValueError, match="128 bits"):
        native.Search(table, geo, 1 << 200)
    with pytest.raises(ValueError):
        native.Search(table, geo, -1)
    with pytest.raises(TypeError):
        native.Search(table, geo, "a1-b1")
    with pytest.raises(ValueError, match="at least"):
        native.Table(3)
    search = native.Search(table, geo, 1)
    with pytest.raises(ValueError, match="not on"):
        search.move_value(24)
    with pytest.raises(ValueError, match="already drawn"):
        search.move_value(0)
    # The table now serves 3 x 3 boards: a 4 x 4 search with it is refused.
    with pytest.raises(ValueError, match="serves 3 x 3"):
        native.Search(table, _backend.native_geometry(geometry(4, 4)), 0)
    # Inconsistent geometry is refused, not trusted.
    g = geometry(2, 2)
    good = [2, 2, g.n_edges, g.n_boxes, g.box_mask, g.edge_sum, g.edge_boxes, g.symmetries]
    good += [g.inverses, g.box_perms, g.extended, g.pairs, g.pair_edges]
    native.Geometry(*good)
    for i, wrong in [(4, g.box_mask[::-1]), (5, g.edge_sum[:-1]), (0, 3), (7, [(0,) * 12])]:
        args = list(good)
        args[i] = wrong
        with pytest.raises(ValueError):
            native.Geometry(*args)
    # A search whose table was cleared since is refused too.
    table.clear()
    with pytest.raises(ValueError, match="cleared"):
        search.value()


@needs_native
def test_a_full_table_still_gives_exact_values():
    with backend("native"):
        tiny = solver.Table(limit=40)  # 64 entries: replaced over and over
        assert solver.solve(Board(3, 2), table=tiny).value == -2
        assert len(tiny) <= 80


@needs_native
def test_node_caps_and_deadlines_stop_the_native_search():
    with backend("native"):
        stats: dict[str, int] = {}
        assert solver.solve(Board(5, 5), max_nodes=5_000, stats=stats, table=solver.Table()) is None
        assert 5_000 <= stats["nodes"] < 5_000 + 64
        start = time.perf_counter()
        assert solver.solve(Board(5, 5), budget=0.2, table=solver.Table()) is None
        assert time.perf_counter() - start < 1.0


@needs_native
def test_a_signal_cancels_a_native_search_with_its_exception():
    class Cancelled(Exception):
        pass

    def cancel(signum, frame):
        raise Cancelled

    old = signal.signal(signal.SIGALRM, cancel)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        start = time.perf_counter()
        with backend("native"), pytest.raises(Cancelled):
            solver.solve(Board(5, 5), table=solver.Table())
        assert time.perf_counter() - start < 2.0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    with backend("native"):  # the process goes on: the next search works
        assert solver.solve(Board(2, 2), table=solver.Table()).value == 2


@needs_native
def test_the_native_search_releases_the_gil_and_serialises_a_shared_table():
    table = solver.Table()
    results = []

    def work():
        with backend("native"):
            results.append(solver.solve(Board(4, 3), budget=0.6, table=table))

    threads = [threading.Thread(target=work) for _ in range(2)]
    ticks = 0
    for t in threads:
        t.start()
    deadline = time.perf_counter() + 0.3
    while time.perf_counter() < deadline:
        ticks += 1  # Python keeps running beside the searches
    for t in threads:
        t.join()
    assert ticks > 10_000
    assert len(results) == 2
    assert all(r is None or r.value == 0 for r in results)
