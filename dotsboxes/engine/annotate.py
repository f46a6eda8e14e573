"""Annotate a whole game: the value of every edge, its mark, and where control changed.

Pure (no Django): it runs in the engine's background lane, never in a request.

How
---
The positions are analysed **from the end of the game backwards**.  Late
positions are small and the solver settles them at once; every solved
position leaves bounds in the solver's shared transposition table, so the
next (earlier, bigger) position starts from what the later ones proved.
That is how exact values reach as far forward as they can.

For the position before edge ``i`` (its mover ``M``):

* ``value``: the value of the position for ``M`` (the solver's convention:
  ``M``'s final margin over the boxes still unclaimed, with best play).
  **Exact** when :func:`solver.solve` settles it within the solver core's
  node limit (:func:`budget`: :data:`SOLVE_NODES` for Python); otherwise
  the master's search (:func:`search.search` with :data:`ESTIMATE_NODES` nodes
  and the master level's leaf completions) gives an estimate, marked
  ``exact: false``.
* ``played``: the value of the edge drawn, for ``M``.  It costs nothing: it is
  the value of the next position, negated when the turn passes, plus the
  boxes the edge claimed when it does not.  Exact when that position is.
* ``best``: the best edges (every one when exact, the search's choice when not).
* ``lost``: the boxes the edge gave away against best play,
  ``(value - played) / 2`` (a margin moves by two when one box changes hands).

Once the solver has failed :data:`MISSES` position(s) in a row, earlier
positions (bigger still) go straight to the estimate: the time is better
spent elsewhere.

Marks
-----
By boxes lost (5 x 5 has 25 boxes; one box often decides a game between good
players, so every loss is marked): **inaccuracy** 1 box, **mistake** 2 or 3
boxes, **blunder** 4 or more (:data:`THRESHOLDS`).

**Control.**  The controller of a position is the side that ends up
collecting the last long chains when both sides play best from it: we follow
the solver's best line to the end and take the side that draws the last edge
(it takes the last component, and best play keeps the long ones for last).
An edge drawn on the best line keeps the controller (the line through it is
the game itself), so control can only change hands on a losing edge; such an
edge is marked ``control``.  Only exact positions have a controller.

**Double-dealing.**  An edge that declines boxes on offer: a box could be
taken, the edge takes none, and it leaves two boxes that one edge takes
together (the all-but-two of a chain, all-but-four of a loop).

Values for the graph (``margins``): Blue's predicted final margin in boxes
(Blue's boxes minus Red's at the end, best play from here), which is the
boxes already claimed plus the value from Blue's side.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from dotsboxes.rules import Board, Edge, Player

from . import backend_name
from . import search as _search
from . import solver as _solver
from .players import MASTER_PLAYOUTS, MASTER_STATIC_SAFE_EDGES, NODE_RATES, SOLVER_RATES

#: Solver nodes per position before it gives up on an exact value (about 2-4 s).
SOLVE_NODES = 250_000
#: Positions with at most this many undrawn edges are promised an exact value (the
#: analysis issue's reach on 5 x 5): they get :data:`REACH_NODES` instead.  Measured on
#: 20 master-club games, 250,000 nodes left one game exact only from 35 undrawn edges;
#: 1,000,000 settled it from 39, and only the one failed attempt at the edge of the reach
#: costs the larger limit.
REACH = 36
REACH_NODES = 1_000_000
#: The native core gets the same CPU time per position as Python, at its node rate
#: (``players.SOLVER_RATES``: 13 times Python's, so 3.3 and 13.3 million nodes), and a
#: reach of 40 undrawn edges.  Measured on 4 master-against-club 5 x 5 games, solved
#: backwards as here: positions with 40 undrawn edges took 1.4 to 4.3 million nodes,
#: with 41 8.7 to 14.4 million, with 42 18.5 million or more (docs/ENGINE.md); a larger
#: reach would mostly buy failed attempts at 13 million nodes each.
NATIVE_RATIO = SOLVER_RATES["native"] / SOLVER_RATES["python"]
NATIVE_REACH = 40


@dataclass(frozen=True)
class Budget:
    """The solver's node limits for one position of an analysis."""

    solve_nodes: int
    reach: int
    reach_nodes: int


BUDGETS = {
    "python": Budget(SOLVE_NODES, REACH, REACH_NODES),
    "native": Budget(
        int(SOLVE_NODES * NATIVE_RATIO), NATIVE_REACH, int(REACH_NODES * NATIVE_RATIO)
    ),
}


def budget() -> Budget:
    """The node limits of the solver core in use (chosen when the analysis starts)."""
    return BUDGETS[backend_name()]


#: Solver nodes for one step of the best line that finds a position's controller.
LINE_NODES = 50_000
#: Consecutive positions the solver failed before the rest go straight to estimates
#: (one: a position one edge bigger than a failed one rarely solves, and a failed
#: attempt costs its whole node limit).
MISSES = 1
#: Search nodes for an estimate: the Python master's nodes for a 0.5 s move
#: (the C search spends about 3 ms of CPU on them, the Python search 0.15 s).
ESTIMATE_NODES = NODE_RATES["python"] // 2
#: Boxes lost at or above which an edge gets each mark (the highest one wins).
THRESHOLDS = (("blunder", 4), ("mistake", 2), ("inaccuracy", 1))
#: Bump when the output changes meaning: stored analyses of an older version are redone.
VERSION = 2

Progress = Callable[[int, int], None]


def mark_for(lost: int) -> str:
    """The mark of an edge that gave away ``lost`` boxes ('' for none)."""
    for name, boxes in THRESHOLDS:
        if lost >= boxes:
            return name
    return ""


def is_double_deal(board: Board, edge: Edge) -> bool:
    """Whether ``edge`` declines boxes on offer in ``board`` (see the module docstring)."""
    if board.claims(edge) or not any(board.sides(b) == 3 for b in range(board.num_boxes)):
        return False
    board.push(edge)
    try:
        return any(board.claims(e) == 2 for e in board.legal_moves)
    finally:
        board.pop()


def _safe_count(board: Board) -> int:
    return sum(
        1 for e in board.legal_moves if all(board.sides(b) <= 1 for b in board.edge_boxes(e))
    )


def _estimate(board: Board, nodes: int) -> tuple[int, Edge]:
    """The master's search: value estimate and move (never exact, even when it says so)."""
    playouts = MASTER_PLAYOUTS if _safe_count(board) > MASTER_STATIC_SAFE_EDGES else 0
    result = _search.search(board, max_nodes=nodes, seed=0, playouts=playouts)
    return result.value, result.edge


def _last_mover(board: Board, first: Edge | None, memo: dict[str, Player | None]) -> Player | None:
    """Who draws the last edge when both sides play best from ``board`` (None: unknown).

    ``first`` (if among the best moves) is followed first, then the first best
    move in board order, so the line is the same every time.  ``memo`` keeps
    the answer for every position on the line.
    """
    board = board.copy(stack=False)
    seen: list[str] = []
    result: Player | None = None
    while not board.is_over():
        key = board.key()
        if key in memo:
            result = memo[key]
            break
        seen.append(key)
        solution = _solver.solve(board, max_nodes=LINE_NODES)
        if solution is None or not solution.best:
            break
        move = first if first in solution.best else solution.best[0]
        first = None
        result = board.turn
        board.push(move)
    for key in seen:
        memo[key] = result
    return result


def annotate(
    width: int,
    height: int,
    edges: list[str],
    *,
    start_key: str = "",
    progress: Progress | None = None,
    solve_nodes: int | None = None,
    reach_nodes: int | None = None,
    estimate_nodes: int = ESTIMATE_NODES,
    misses: int = MISSES,
) -> dict:
    """Annotate the game of ``edges`` (dot-pair names) on a ``width`` x ``height`` board.

    ``start_key``: a set starting position (``Board.key()``), else the empty
    board.  ``progress(done, total)`` is called after each edge is analysed.
    Returns plain data (JSON-ready): see :func:`_entry` for one edge, plus
    ``margins`` (Blue's predicted final margin before each edge and at the
    end, with whether it is exact), per-player totals in ``players``,
    ``exact_from`` (the first ply whose position is exact) and the settings.
    ``solve_nodes`` and ``reach_nodes`` default to the solver core's :func:`budget`.
    Raises :class:`dotsboxes.rules.RulesError` on an illegal edge.
    """
    started = time.process_time()
    limits = budget()
    solve_nodes = limits.solve_nodes if solve_nodes is None else solve_nodes
    reach_nodes = limits.reach_nodes if reach_nodes is None else reach_nodes
    board = Board.from_key(start_key) if start_key else Board(width, height)
    if (board.width, board.height) != (width, height):
        raise ValueError(f"the start position is not a {width} x {height} board")
    boards: list[Board] = []
    for text in edges:
        boards.append(board.copy(stack=False))
        board.play(Edge.parse(text))
    final = board
    total = len(edges)
    entries: list[dict] = [{} for _ in edges]
    memo: dict[str, Player | None] = {}
    # Values of the position after each edge, for the side to move there.
    next_value, next_exact, next_controller = 0, True, final_controller(final, edges)
    if not final.is_over():  # a resigned or unfinished game: its last position counts too
        solution = _solver.solve(final, max_nodes=solve_nodes)
        if solution is not None:
            next_value, next_controller = solution.value, _last_mover(final, None, memo)
        else:
            next_value, next_exact = _estimate(final, estimate_nodes)[0], False
    final_margin = final.scores[0] - final.scores[1]
    final_margin += next_value if final.turn is Player.BLUE else -next_value
    final_exact = next_exact
    failed = 0
    for i in range(total - 1, -1, -1):
        before = boards[i]
        edge = Edge.parse(edges[i])
        mover = before.turn
        claimed = before.claims(edge)
        played = claimed + next_value if claimed else -next_value
        solution = None
        if failed < misses:
            undrawn = len(before.legal_moves)
            nodes = reach_nodes if undrawn <= limits.reach else solve_nodes
            solution = _solver.solve(before, max_nodes=nodes)
            failed = 0 if solution is not None else failed + 1
        if solution is not None:
            value, exact = solution.value, True
            best = [str(e) for e in solution.best]
        else:
            estimate, choice = _estimate(before, estimate_nodes)
            exact = False
            if played >= estimate:
                value, best = played, [str(edge)]
            else:
                value, best = estimate, [str(choice)]
        played_exact = exact and next_exact
        lost = max(0, (value - played) // 2)
        controller = None
        if exact:
            if not lost and next_controller is not None:
                controller = next_controller  # the game's edge is on a best line
            else:
                controller = _last_mover(before, None if lost else edge, memo)
        blue, red = before.scores
        side_value = value if mover is Player.BLUE else -value
        entries[i] = {
            "ply": i + 1,
            "edge": str(edge),
            "side": mover.name.lower(),
            "value": value,
            "exact": exact,
            "played": played,
            "played_exact": played_exact,
            "lost": lost,
            "best": best,
            "mark": mark_for(lost),
            "double_deal": is_double_deal(before, edge),
            "controller": controller.name.lower() if controller is not None else None,
            "control": bool(
                controller is not None
                and next_controller is not None
                and controller is not next_controller
            ),
            "margin": blue - red + side_value,
        }
        next_value, next_exact, next_controller = value, exact, controller
        if progress is not None:
            progress(total - i, total)
    margins = [{"ply": e["ply"] - 1, "margin": e["margin"], "exact": e["exact"]} for e in entries]
    margins.append({"ply": total, "margin": final_margin, "exact": final_exact})
    exact_from = next((e["ply"] - 1 for e in entries if e["exact"]), total)
    return {
        "version": VERSION,
        "width": width,
        "height": height,
        "start_key": start_key,
        "edges": entries,
        "margins": margins,
        "players": summarise(entries),
        "exact_from": exact_from,
        "exact_undrawn": len(boards[exact_from].legal_moves) if exact_from < total else 0,
        "cpu_seconds": round(time.process_time() - started, 2),
        "settings": {
            "solve_nodes": solve_nodes,
            "reach": limits.reach,
            "reach_nodes": reach_nodes,
            "backend": backend_name(),
            "estimate_nodes": estimate_nodes,
        },
    }


def final_controller(final: Board, edges: list[str]) -> Player | None:
    """Who drew the last edge of a finished game (None if it was not played out)."""
    if not edges or not final.is_over():
        return None
    before = final.copy()
    before.pop()
    return before.turn


def summarise(entries: list[dict]) -> dict:
    """Per side: edges drawn, boxes lost, accuracy (% of edges without loss), marks."""
    out = {}
    for side in ("blue", "red"):
        mine = [e for e in entries if e["side"] == side]
        clean = sum(1 for e in mine if not e["lost"])
        out[side] = {
            "edges": len(mine),
            "lost": sum(e["lost"] for e in mine),
            "accuracy": round(100 * clean / len(mine)) if mine else 100,
            "marks": {name: sum(1 for e in mine if e["mark"] == name) for name, _ in THRESHOLDS},
            "control": sum(1 for e in mine if e["control"]),
            "double_deals": sum(1 for e in mine if e["double_deal"]),
        }
    return out
