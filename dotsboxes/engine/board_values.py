"""The value of every undrawn edge of a position, for the analysis board.

Pure (no Django): the web app runs these in the engine's pool.  Two passes:

* :func:`quick` answers within about a second on 5 x 5.  With 36 edges or
  fewer left the solver goes first: for :data:`QUICK_SOLVER_NODES` where its
  model (:func:`players.solver_reach`: the nodes it needs grow about 1.6
  times per safe edge) says that settles the position, else for half the
  time; if it settles, every value is exact.  Otherwise each edge is
  valued by a short search of the position it leads to (estimates): always
  at least one finished iteration, never a default, since a search's first
  guess can be sign-wrong (the empty 3 x 3 board searched says +3 for every
  edge; the solver proves -3 in about a second).
* :func:`deep` spends up to ``budget`` seconds, or ``nodes`` solver nodes (the
  analysis board's: :data:`DEEP_SOLVER_NODES`): the solver values every edge
  exactly (:func:`solver.move_values`, one shared table); if it cannot, each
  edge's position is tried on its own and the rest keep a longer search's
  estimate.

An edge's value is the mover's final margin over the boxes unclaimed before
it, with best play afterwards (the solver's convention): the best edges have
the position's value, and an edge ``2k`` below the best gives ``k`` boxes away.
"""

from __future__ import annotations

import time

from dotsboxes.rules import Board, Edge

from . import backend_name
from . import search as _search
from . import solver as _solver
from .analysis import analyse, describe
from .players import is_safe, solver_reach

#: Search nodes per edge in the quick pass, and in the deep pass's estimates.
QUICK_NODES = 150
DEEP_NODES = 1_500
#: The quick pass's time (the solver gets half of it when at most
#: :data:`QUICK_SOLVER_EDGES` edges are left).
QUICK_SECONDS = 0.8
QUICK_SOLVER_EDGES = 36
#: Solver nodes the quick pass spends where the model says they settle the
#: position (about 2 s in Python; the empty 3 x 3 board takes 127,000), and a
#: safety net in seconds for an overloaded machine.
QUICK_SOLVER_NODES = {"python": 150_000, "native": 1_000_000}[backend_name()]  # native: ~0.6 s
QUICK_SOLVER_SAFETY = 10.0
#: The analysis board's deep pass, in solver nodes per core (node-limited: whether it
#: is exact does not depend on the load).  Python: about what 5 s of one core
#: searches.  Native: the empty 4 x 3 board needs 16 million (its every edge, a cold
#: table; 8-9 s of one core), the issue's target; with a margin.
DEEP_SOLVER_NODES = {"python": 500_000, "native": 24_000_000}[backend_name()]
#: Where the solver's model (:func:`players.solver_reach`) says even those nodes cannot
#: settle the position (the empty 4 x 4 and 5 x 5 boards), the pass keeps to the clock
#: instead, these seconds at most, as before: it would not settle, only hold a worker.
DEEP_HOPELESS_SECONDS = 5.0
#: The deep pass's share of those nodes for the whole position (the rest: edge by edge).
DEEP_WHOLE_SHARE = 0.8
#: Solver nodes per step of an exact principal variation.
PV_SOLVER_NODES = 20_000
#: Longest principal variation shown (edges).
PV_LENGTH = 10


def _child_value(board: Board, edge: Edge, value_after: int) -> int:
    claimed = board.claims(edge)
    return claimed + value_after if claimed else -value_after


def _estimate_edge(board: Board, edge: Edge, nodes: int) -> int:
    board.push(edge)
    try:
        after = _search_value(board, nodes)
    finally:
        board.pop()
    return _child_value(board, edge, after)


def _search_value(board: Board, nodes: int) -> int:
    """The search's value of ``board`` for the side to move, from a finished iteration.

    Node-limited only (the same answer on any machine).  The search answers 0
    without searching when it found no iteration's worth of nodes or has only
    one move to offer: then it gets more nodes, or the lone move is played.
    """
    if board.is_over():
        return 0
    result = _search.search(board, max_nodes=nodes)
    if result.depth or result.exact:
        return result.value
    if len(_search.root_moves(board)) == 1:
        return _estimate_edge(board, result.edge, nodes)
    return _search_value(board, nodes * 2)


def _result(
    board: Board,
    values: dict[Edge, int],
    exact: dict[Edge, bool],
    level: str,
    deadline: float | None = None,
) -> dict:
    best = max(values.values()) if values else 0
    return {
        "key": board.key(),
        "level": level,
        "values": {str(e): v for e, v in values.items()},
        "exact_edges": [str(e) for e, x in exact.items() if x],
        "exact": bool(values) and all(exact.values()),
        "value": best,
        "best": sorted(str(e) for e, v in values.items() if v == best),
        "pv": _principal_variation(board, values, all(exact.values()), deadline),
        "summary": describe(analyse(board)),
    }


def _principal_variation(
    board: Board, values: dict[Edge, int], exact: bool, deadline: float | None
) -> list[str]:
    """The best line from ``board`` as edge names (solver-proved when ``exact``).

    It stops at :data:`PV_LENGTH` edges, or where the time is up.
    """
    if not values:
        return []
    first = max(values, key=lambda e: (values[e], -board.index(e)))
    line, b = [str(first)], board.copy(stack=False)
    b.push(first)
    while not b.is_over() and len(line) < PV_LENGTH:
        if deadline is not None and time.perf_counter() > deadline:
            break
        if exact:
            solution = _solver.solve(b, max_nodes=PV_SOLVER_NODES)
            if solution is None or not solution.best:
                break
            move = solution.best[0]
        else:
            move = _search.search(b, max_nodes=QUICK_NODES, deadline=deadline).edge
        line.append(str(move))
        b.push(move)
    return line


def quick(
    key: str, *, budget: float = QUICK_SECONDS, safety: float | None = QUICK_SOLVER_SAFETY
) -> dict:
    """First values for every undrawn edge of the position ``key``.

    Within about ``budget`` s, or about 2 s where the solver's model says it
    settles the position in :data:`QUICK_SOLVER_NODES`.  ``safety``: the
    solver's hard stop in seconds on an overloaded machine (``None``: none,
    so the answer depends on node counts alone).
    """
    board = Board.from_key(key)
    if board.is_over():
        return _result(board, {}, {}, "quick")
    values = _solved(board, budget, safety)
    deadline = time.perf_counter() + budget
    if values is not None:
        return _result(board, values, dict.fromkeys(values, True), "quick", deadline)
    values = {e: _estimate_edge(board, e, QUICK_NODES) for e in board.legal_moves}
    return _result(board, values, dict.fromkeys(values, False), "quick", deadline)


def _solved(board: Board, budget: float, safety: float | None) -> dict[Edge, int] | None:
    """Every edge's exact value if the solver settles them within the quick pass."""
    safe = sum(1 for e in board.legal_moves if is_safe(board, e))
    # The model is the easiest case's: with more than 36 edges left (5 x 5 at 40 undrawn)
    # it promised 150,000 nodes would do and 8 positions of 8 needed more (2.3 s each, lost).
    few = len(board.legal_moves) <= QUICK_SOLVER_EDGES
    if few and solver_reach(safe, QUICK_SOLVER_NODES):
        # Node-limited: whether the quick pass is exact does not depend on the load.
        solution = _solver.solve(board, max_nodes=QUICK_SOLVER_NODES, budget=safety)
        if solution is not None:
            # The table now holds the position: valuing each edge is a look-up or little more.
            values = _solver.move_values(board, budget=None if safety is None else max(budget, 0.5))
            if values is not None:
                return values
    if few:
        return _solver.move_values(board, budget=budget * 0.5)
    return None


def deep(key: str, *, budget: float = 5.0, nodes: int | None = None) -> dict:
    """Exact values where the solver settles them within ``budget`` seconds, else estimates.

    The solver gets 60 % of the budget for the whole position, then what is
    left (less a tenth kept for the estimates) edge by edge.  With ``nodes``
    the solver's work is counted in nodes instead (:data:`DEEP_WHOLE_SHARE`
    of them for the whole position, the rest shared out edge by edge), so
    whether a value comes out exact does not depend on the load, and
    ``budget`` is only the hard stop for an overloaded machine; but where the
    solver's model says even ``nodes`` cannot settle the position, the clock
    decides, :data:`DEEP_HOPELESS_SECONDS` at most.
    """
    board = Board.from_key(key)
    if board.is_over():
        return _result(board, {}, {}, "deep")
    if nodes is not None and not solver_reach(
        sum(1 for e in board.legal_moves if is_safe(board, e)), nodes
    ):
        nodes, budget = None, min(budget, DEEP_HOPELESS_SECONDS)
    deadline = time.perf_counter() + budget
    if nodes is None:
        whole_seconds, whole_nodes, edge_nodes = budget * 0.6, None, None
    else:
        whole_seconds, whole_nodes = budget * 0.9, int(nodes * DEEP_WHOLE_SHARE)
        edge_nodes = max(1, (nodes - whole_nodes) // len(board.legal_moves))
    values = _solver.move_values(board, budget=whole_seconds, max_nodes=whole_nodes)
    if values is not None:
        return _result(board, values, dict.fromkeys(values, True), "deep", deadline)
    solver_until = deadline - budget * 0.1

    def edge_seconds(left: float) -> float:
        # By the clock an edge gets at most half a second; by nodes the clock only stops.
        return min(left, 0.5) if nodes is None else left

    values, exact = {}, {}
    for edge in board.legal_moves:
        left = solver_until - time.perf_counter()
        after = None
        if left > 0.02:
            board.push(edge)
            try:
                after = (
                    0
                    if board.is_over()
                    else _solver.value(board, budget=edge_seconds(left), max_nodes=edge_nodes)
                )
            finally:
                board.pop()
        if after is not None:
            values[edge], exact[edge] = _child_value(board, edge, after), True
        else:
            # Past the deadline the quick pass's short searches: still estimates, never defaults.
            nodes_left = DEEP_NODES if time.perf_counter() < deadline else QUICK_NODES
            values[edge], exact[edge] = _estimate_edge(board, edge, nodes_left), False
    return _result(board, values, exact, "deep", deadline)
