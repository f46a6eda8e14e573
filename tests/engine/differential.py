"""Positions and checks for the differential test of the two solver cores.

The native core (C) and the Python core must give every position the same
value and the same set of best moves, and every bound either reports (after
a search cut short by a node cap) must contain the exact value.  Used by
``test_native.py`` (a few thousand positions in CI), by
``tests/bench/native.py diff`` (20,000 or more) and by the sanitizer run
``tests/bench/sanitize.py``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

from dotsboxes.engine import _backend, players, solver
from dotsboxes.rules import Board

#: Sizes in boxes: 1 x 1 to 5 x 5, and 3 x 7 (both ways round).
SIZES = [(w, h) for w in range(1, 6) for h in range(1, 6)] + [(3, 7), (7, 3)]


def undrawn_limit(width: int, height: int) -> int:
    """How many undrawn edges a position may have so that Python solves it quickly."""
    edges = width * (height + 1) + height * (width + 1)
    return min(edges, 18 if width * height <= 6 else 15)


def random_position(rng: random.Random, width: int, height: int, undrawn: int) -> Board:
    """A random playout to ``undrawn`` edges left; half of them avoid third sides
    while they can, as players do, so chains, loops and loony endgames are common."""
    board = Board(width, height)
    careful = rng.random() < 0.5
    while len(board.legal_moves) > undrawn:
        moves = board.legal_moves
        if careful:
            safe = [e for e in moves if all(board.sides(b) < 2 for b in board.edge_boxes(e))]
            moves = safe or moves
        board.push(rng.choice(moves))
    return board


def game_position(rng: random.Random, width: int, height: int, undrawn: int) -> Board:
    """A position from a game the engine's casual level plays against itself."""
    board = Board(width, height)
    seed = rng.randrange(1 << 30)
    while len(board.legal_moves) > undrawn:
        board.push(players.choose(board, level="casual", seed=seed + len(board.move_stack)))
    return board


def positions(count: int, seed: int = 0) -> Iterator[Board]:
    """``count`` positions across :data:`SIZES`, a third of them from engine games."""
    rng = random.Random(seed)
    for i in range(count):
        width, height = SIZES[i % len(SIZES)]
        undrawn = rng.randint(1, undrawn_limit(width, height))
        make = game_position if i % 3 == 2 else random_position
        yield make(rng, width, height, undrawn)


@contextmanager
def backend(name: str) -> Iterator[None]:
    """Run the solver on ``name`` (``"native"`` or ``"python"``) for a while."""
    was = _backend.BACKEND
    _backend.BACKEND = name
    try:
        yield
    finally:
        _backend.BACKEND = was


def check(board: Board, index: int) -> list[str]:
    """The differences between the two cores on ``board`` (empty: none)."""
    problems = []
    results = {}
    for name in ("python", "native"):
        with backend(name):
            s = solver.solve(board, table=solver.Table())
            results[name] = (s.value, sorted(map(str, s.best)))
    if results["python"] != results["native"]:
        problems.append(f"solve: python {results['python']} native {results['native']}")
    if index % 4 == 0:
        # Exact move values, then the bounds each core proves in a search cut short.
        with backend("python"):
            exact = solver.move_values(board)
        with backend("native"):
            native_values = solver.move_values(board)
        if native_values != exact:
            problems.append(f"move_values: python {exact} native {native_values}")
        for name in ("python", "native"):
            with backend(name):
                table = solver.Table()
                solver.solve(board, max_nodes=1 + index % 300, table=table)
                for edge, (lo, hi) in solver.move_bounds(board, table).items():
                    if not lo <= exact[edge] <= hi:
                        problems.append(f"{name} bound ({lo}, {hi}) of {edge}: {exact[edge]}")
    if index % 8 == 4:
        closes = {}
        for name in ("python", "native"):
            with backend(name):
                solution, close = solver.close_moves(board, boxes=2, table=solver.Table())
                closes[name] = (solution.value, sorted(map(str, close)))
        if closes["python"] != closes["native"]:
            problems.append(f"close_moves: {closes}")
    return [f"{board.key()}: {p}" for p in problems]
