"""The heuristic search in C (``_native_search``) against the Python search.

The two draw different random numbers, so their moves may differ; where both
call a value exact it must be the same, and where the root is a simple loony
endgame (valued exactly, no search) it must be the solver's value.  The C
search must be deterministic for a seed, answer legal moves only, honour
``only``, stop at a passed deadline, release the GIL, and raise on bad input.
"""

from __future__ import annotations

import os
import random
import threading
import time

import pytest

from dotsboxes.engine import _backend, search, solver
from dotsboxes.engine.analysis import analyse
from dotsboxes.rules import Board

from .differential import backend, positions

module = _backend.native_search
needs_native = pytest.mark.skipif(module is None, reason="the C search was not built")
FORCED = (os.environ.get("DOTSBOXES_ENGINE_BACKEND") or "auto").lower()


def test_ci_builds_the_search_extension():
    if os.environ.get("CI") != "true":
        pytest.skip("only CI insists on the compiled search")
    assert module is not None, "CI must build dotsboxes.engine._native_search (pip install -e .)"


def middle_game(rng: random.Random, width: int, height: int, undrawn: int) -> Board:
    """Safe edges first, as players draw them, to ``undrawn`` edges left."""
    board = Board(width, height)
    while len(board.legal_moves) > undrawn:
        moves = board.legal_moves
        safe = [e for e in moves if all(board.sides(b) < 2 for b in board.edge_boxes(e))]
        board.push(rng.choice(safe if safe and rng.random() < 0.9 else moves))
    return board


def boards(count: int, seed: int) -> list[Board]:
    """Small positions of every size (the differential test's) and larger ones."""
    rng = random.Random(seed)
    found = list(positions(count // 2, seed=seed))
    sizes = [(3, 3), (4, 3), (4, 4), (5, 5), (3, 7), (6, 5)]
    for i in range(count - len(found)):
        width, height = sizes[i % len(sizes)]
        edges = width * (height + 1) + height * (width + 1)
        found.append(middle_game(rng, width, height, rng.randint(1, min(edges - 1, 36))))
    return found + simple_endgames(rng, 8)


def simple_endgames(rng: random.Random, count: int) -> list[Board]:
    """Positions with no safe edge, no junction and nothing to take."""
    found = []
    while len(found) < count:
        width, height = rng.choice([(3, 3), (4, 4), (5, 5), (3, 7)])
        board = middle_game(rng, width, height, rng.randint(4, 30))
        a = analyse(board)
        if a.endgame_value is not None and not a.capturable and len(board.legal_moves) > 1:
            found.append(board)
    return found


@needs_native
@pytest.mark.skipif(
    FORCED == "python" or (os.environ.get("CI") == "true" and FORCED != "native"),
    reason="runs both searches itself: once per CI run (the one with the native backend forced)",
)
@pytest.mark.parametrize("chunk", range(3))
def test_exact_values_agree_with_the_python_search_and_the_solver(chunk):
    rng = random.Random(chunk)
    both_exact = simple = 0
    problems = []
    for i, board in enumerate(boards(92, seed=chunk)):
        playouts = (0, 8)[i % 2]
        nodes = rng.choice((300, 3_000, 10_000))
        python = search.python_search(board, max_nodes=nodes, playouts=playouts, seed=i)
        native = search.native_search(board, max_nodes=nodes, playouts=playouts, seed=i)
        assert native.edge in board.legal_moves
        if python.exact and native.exact:
            both_exact += 1
            if python.value != native.value:
                problems.append((board.key(), python, native))
        if native.exact and native.depth == 0 and native.nodes > 1:
            # The simple-endgame root: Berlekamp's recursion, no search, truly exact.
            simple += 1
            if native.value != solver.solve(board).value:
                problems.append((board.key(), "solver", native))
    assert not problems, problems[:5]
    assert both_exact >= 15 and simple >= 8, (both_exact, simple)


@needs_native
@pytest.mark.skipif(
    FORCED == "python" or (os.environ.get("CI") == "true" and FORCED != "native"),
    reason="runs both searches itself: once per CI run (the one with the native backend forced)",
)
def test_without_random_numbers_the_two_searches_are_the_same_search():
    # Static leaves and at most one safe root move (nothing to shuffle): no random
    # number enters, so the C search must visit the same nodes and answer the same.
    # A large table, so that no entry is replaced (the Python table is a dict).
    rng = random.Random(5)
    tried = 0
    while tried < 150:
        width, height = rng.choice([(3, 3), (4, 4), (5, 5), (3, 7), (4, 3)])
        board = middle_game(rng, width, height, rng.randint(3, 40))
        moves = search.root_moves(board)
        if sum(all(board.sides(b) < 2 for b in board.edge_boxes(e)) for e in moves) > 1:
            continue
        tried += 1
        nodes = rng.choice((100, 1_000, 3_000))
        python = search.python_search(board, max_nodes=nodes)
        edge, value, depth, used, exact, stopped = module.search(
            search._native_geometry(width, height),
            module.Table(1 << 21),
            board.edge_bits.to_bytes(16, "little"),
            nodes,
            0,
        )
        native = search.SearchResult(board.edges[edge], value, depth, used, exact, stopped)
        assert native == python, board.key()


@needs_native
def test_a_seed_gives_the_same_result_and_seeds_differ():
    rng = random.Random(7)
    differ = 0
    for i in range(40):
        board = middle_game(rng, 5, 5, rng.randint(30, 50))
        first = search.native_search(board, max_nodes=5_000, playouts=8, seed=i)
        again = search.native_search(board, max_nodes=5_000, playouts=8, seed=i)
        assert first == again
        other = search.native_search(board, max_nodes=5_000, playouts=8, seed=i + 1000)
        differ += other != first
    assert differ >= 5  # the seed orders the moves and drives the completions


@needs_native
def test_only_restricts_the_root_and_moves_are_legal():
    rng = random.Random(3)
    for i in range(60):
        board = middle_game(rng, 5, 5, rng.randint(2, 45))
        allowed = rng.sample(board.legal_moves, k=min(2, len(board.legal_moves)))
        result = search.native_search(board, max_nodes=2_000, seed=i, only=allowed)
        assert result.edge in allowed


@needs_native
def test_the_backend_chooses_the_core():
    board = middle_game(random.Random(5), 5, 5, 40)
    with backend("native"):
        assert search.search(board, max_nodes=3_000, seed=2) == search.native_search(
            board, max_nodes=3_000, seed=2
        )
    with backend("python"):
        assert search.search(board, max_nodes=3_000, seed=2) == search.python_search(
            board, max_nodes=3_000, seed=2
        )


@needs_native
def test_a_kept_table_is_reused_across_searches():
    board = middle_game(random.Random(11), 4, 4, 22)
    table: dict = {}
    first = search.native_search(board, max_nodes=200_000, table=table)
    assert ("native", 4, 4) in table
    again = search.native_search(board, max_nodes=200_000, table=table)
    assert again.value == first.value and again.exact == first.exact
    assert again.nodes < first.nodes  # the table answers what the first search found


@needs_native
def test_a_passed_deadline_stops_the_search():
    board = middle_game(random.Random(1), 5, 5, 50)
    start = time.perf_counter()
    result = search.native_search(board, max_nodes=10**12, deadline=time.perf_counter(), playouts=8)
    assert time.perf_counter() - start < 0.5
    # The first node looks at the clock, and the result says the clock stopped it.
    assert result.edge in board.legal_moves and result.nodes == 1 and result.depth == 0
    assert result.stopped
    # A search the node limit ends is not "stopped", however late it returns.
    late = search.native_search(board, max_nodes=300, deadline=time.perf_counter() + 60)
    assert late.nodes == 301 and not late.stopped
    # Nor is an answer that needed no search (one move to consider), as in Python.
    rng = random.Random(4)
    forced = middle_game(rng, 5, 5, 20)
    while len(search.root_moves(forced)) != 1:
        forced = middle_game(rng, 5, 5, rng.randint(2, 30))
    passed = time.perf_counter()
    native = search.native_search(forced, max_nodes=1_000, deadline=passed)
    assert native == search.python_search(forced, max_nodes=1_000, deadline=passed)
    assert not native.stopped


@needs_native
def test_the_search_releases_the_gil_and_a_table_serves_one_search_at_a_time():
    board = middle_game(random.Random(2), 5, 5, 50)
    table: dict = {}
    done = []

    def long_search():
        deadline = time.perf_counter() + 1.0
        done.append(search.native_search(board, max_nodes=10**12, deadline=deadline, table=table))

    thread = threading.Thread(target=long_search)
    thread.start()
    time.sleep(0.2)  # this thread runs while the other searches: the GIL is free
    try:
        with pytest.raises(RuntimeError, match="in use"):
            search.native_search(board, max_nodes=100, table=table)
    finally:
        thread.join()
    assert done and done[0].nodes > 1_000


@needs_native
def test_bad_input_raises():
    geo = search._native_geometry(3, 3)
    table = module.Table(1024)
    drawn = (0).to_bytes(16, "little")
    full = ((1 << 24) - 1).to_bytes(16, "little")
    for call, error in (
        (lambda: module.search(geo, table, (1 << 30).to_bytes(16, "little"), 10, 0), ValueError),
        (lambda: module.search(geo, table, b"\0" * 15, 10, 0), TypeError),
        (lambda: module.search(geo, table, full, 10, 0), ValueError),  # the game is over
        (lambda: module.search(geo, table, drawn, 10, 0, -1.0, 64, -1), ValueError),
        (lambda: module.search(geo, table, drawn, 10, 0, -1.0, 64, 0, drawn), ValueError),
        (lambda: module.search(geo, table, drawn, 10, "seed"), TypeError),
        (lambda: module.search(table, geo, drawn, 10, 0), TypeError),
        (lambda: module.search(geo, module.Table.__new__(module.Table), drawn, 10, 0), ValueError),
        (lambda: module.Table(0), ValueError),
        (lambda: module.Table(1 << 40), ValueError),
        (lambda: module.Geometry(9, 9, (), ()), ValueError),
        (lambda: module.Geometry(3, 3, [(0,)] * 24, [((0, 99),) * 4] * 9), ValueError),
        (lambda: module.Geometry(3, 3, [(0,)] * 23, [((0, -1),) * 4] * 9), ValueError),
    ):
        with pytest.raises(error):
            call()
    board = Board(3, 3)
    with pytest.raises(ValueError):
        search.native_search(board, max_nodes=10, only=[])  # no move allowed
    board.push(board.legal_moves[0])
    with pytest.raises(ValueError):
        search.native_search(board, max_nodes=10, only=[board.move_stack[-1]])  # drawn
    while not board.is_over():
        board.push(board.legal_moves[0])
    with pytest.raises(ValueError, match="over"):
        search.native_search(board, max_nodes=10)
