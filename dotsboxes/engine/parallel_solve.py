"""The exact solver split over several processes at the root (for benchmarks).

:func:`solve_parallel` gives the same :class:`~dotsboxes.engine.solver.Solution`
as :func:`~dotsboxes.engine.solver.solve`, for boards too big to solve in one
process in reasonable time (4 x 3).  The root's moves, one per class of moves
that lead to the same position under the board's symmetries, are handed out to
worker processes one at a time.  Each worker keeps its own transposition table
across the moves it is given; the only thing they share is the best move value
found so far, ``floor``:

* a move is first tested against ``floor`` with one null-window search: if it
  cannot reach it, it is not a best move, and that is all we need to know;
* otherwise its exact value is worked out (MTD(f) from ``floor``) and raises
  ``floor`` for everyone.

At the end the value is the largest move value and the best moves are those
that reach it.  Not for the web app, which already runs the engine in a
process pool: this forks its own workers.
"""

from __future__ import annotations

import multiprocessing
import resource
import time
from typing import Any

from dotsboxes.rules import Board

from . import solver
from ._bits import geometry

_floor: Any = None  # the shared best value so far, in each worker
_root: tuple[int, int, int] = (0, 0, 0)  # width, height, drawn edges


def _init(width: int, height: int, drawn: int, floor: Any, table_limit: int) -> None:
    global _floor, _root
    _floor, _root = floor, (width, height, drawn)
    solver.TABLE_LIMIT = table_limit


def _move_value(e: int) -> tuple[int, int | None, int, float, float]:
    """Root move ``e``: its value (None if below the floor), nodes, CPU s, peak MB."""
    cpu = time.process_time()
    width, height, drawn = _root
    s = solver._Search(geometry(width, height), drawn, None, None)
    floor = _floor.value
    if floor > -solver._INF and not s.move_reaches(e, floor):
        value = None
    else:
        value = s.move_value(e, max(floor, -s.root[3]))
        with _floor.get_lock():
            if value > _floor.value:
                _floor.value = value
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return e, value, s.nodes, time.process_time() - cpu, peak


def root_classes(board: Board) -> dict[int, list[int]]:
    """The root's moves grouped by the position they lead to, up to symmetry.

    Keys are one representative edge index per class; moves in one class have
    the same value.
    """
    geo = geometry(board.width, board.height)
    s = solver._Search(geo, board.edge_bits, None, None)
    classes: dict[tuple[int, int], list[int]] = {}
    for edge in board.legal_moves:
        e = board.index(edge)
        k, child = s.after(e)
        classes.setdefault((k, geo.canonical(child[0])[0]), []).append(e)
    return {moves[0]: moves for moves in classes.values()}


def solve_parallel(
    board: Board, processes: int = 2, stats: dict[str, float] | None = None
) -> solver.Solution:
    """Solve ``board`` exactly with ``processes`` worker processes (no budget).

    ``stats``, if given, receives the workers' total CPU seconds (``cpu``) and
    the largest worker's peak memory in MB (``peak_mb``).
    """
    moves = board.legal_moves
    if not moves:
        return solver.Solution(0, (), 0)
    classes = root_classes(board)
    # forkserver, as in pool.py: forking a process that runs threads can copy held locks.
    context = multiprocessing.get_context("forkserver")
    floor = context.Value("i", -solver._INF)
    args = (board.width, board.height, board.edge_bits, floor, solver.TABLE_LIMIT)
    values: dict[int, int | None] = {}
    nodes, cpu, peak = 0, 0.0, 0.0
    with context.Pool(processes, initializer=_init, initargs=args) as pool:
        for e, value, n, seconds, mb in pool.imap_unordered(_move_value, list(classes)):
            values[e] = value
            nodes += n
            cpu += seconds
            peak = max(peak, mb)
    if stats is not None:
        stats.update(cpu=cpu, peak_mb=peak)
    best_value = max(v for v in values.values() if v is not None)
    best = sorted(e for rep, v in values.items() if v == best_value for e in classes[rep])
    return solver.Solution(best_value, tuple(board.edges[e] for e in best), nodes)
