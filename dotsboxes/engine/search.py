"""Time-bounded search with chain knowledge, for positions the solver cannot finish.

Iterative-deepening alpha-beta (negamax on the margin of the side to move over
the unclaimed boxes, the solver's convention) with a transposition table, and
the theory built into move generation and evaluation:

* **Captures cost no depth, and branch only where it matters.**  A capturable
  box is taken at once unless it is part of the last two boxes of an opened
  chain or the last four of an opened loop; there the search tries exactly two
  moves: take them, or decline with the double-dealing move.
* **One move per component.**  Handing out a chain or a loop gives it away
  whichever of its edges is drawn, so the search opens each component once (a
  chain from its end, a two-chain in the middle so it cannot be declined).  While
  safe edges remain, the only unsafe moves tried are hand-outs of short chains:
  the sacrifices that change the long-chain parity.
* **Exact leaves.**  With no junction left, the position is a simple loony
  endgame and :func:`analysis.simple_endgame_value` values it exactly.
* **Chain-parity evaluation.**  Elsewhere a leaf is worth an estimate of the
  controlled value to the side the long-chain rule favours (see
  :mod:`dotsboxes.engine.analysis`).

**Determinism.**  The search is limited by a node count, not by the clock: the
same position, seed and node limit give the same move on any machine.  The
wall-clock deadline (:class:`.deadline.Deadline`) is only a safety net for a
loaded machine.  However the search is stopped, it answers with the best move
of the deepest iteration it finished, or with a move that beat that one at the
depth of the unfinished iteration (measured: the better answer), or with none
finished the first move in order (safe moves first, hand-outs smallest first).

**Two cores.**  :func:`search` runs the same algorithm in C
(``dotsboxes/engine/native/search.c``) when the backend is native
(:mod:`._backend`), else this module's :func:`python_search`, the reference.
The C search draws its random numbers from its own generator, so its moves
may differ from the Python search's for the same seed (it is deterministic on
every platform all the same); a value it calls exact is the same.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from functools import cache

from dotsboxes.rules import Board, Edge

from . import _backend
from .analysis import (
    GROUND,
    Grid,
    RawComponent,
    arrays,
    closed_value,
    grid,
    raw_components,
    simple_endgame_value,
)
from .deadline import Deadline

INF = 10_000
EXACT_DEPTH = 1_000  # stored in the table for values that no heuristic leaf touched
_LOWER, _UPPER, _EXACT_FLAG = 0, 1, 2


class _Abort(Exception):
    pass


@dataclass(frozen=True)
class SearchResult:
    """The move found, its value for the side to move, and how it was found.

    ``exact`` is true when no heuristic leaf influenced the value: the value is
    then the final margin over the unclaimed boxes when both sides keep to the
    moves this search generates (one hand-out per component...).  That is no
    proof: a move it never tries can be better (4 of 89 exact results in 600
    random searches differed from the solver's value; docs/ENGINE.md).  Proved
    values come from the solver.  ``depth``: the deepest
    iteration finished (0: none).  ``stopped``: the deadline, not the node
    limit or the end of the game tree, ended the search.
    """

    edge: Edge
    value: int
    depth: int
    nodes: int
    exact: bool
    stopped: bool = False


class _Searcher:
    def __init__(
        self,
        g: Grid,
        drawn: bytearray,
        sides: bytearray,
        *,
        max_nodes: int,
        deadline: Deadline | None,
        playouts: int = 0,
        rng: random.Random | None = None,
    ) -> None:
        self.g = g
        self.drawn = drawn
        self.sides = sides
        self.unclaimed = sum(1 for s in sides if s < 4)
        self.undrawn = len(drawn) - sum(drawn)
        self.key = sum(1 << i for i, d in enumerate(drawn) if d)
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.next_clock = 0  # the first node looks: the deadline may be gone already
        self.stopped = False
        self.inexact = 0
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.partial: tuple[int, int] | None = None
        self.playouts = playouts
        self.rng = rng or random.Random(0)

    # -- making moves -----------------------------------------------------------

    def push(self, i: int) -> int:
        self.drawn[i] = 1
        self.key ^= 1 << i
        self.undrawn -= 1
        claimed = 0
        sides = self.sides
        for b in self.g.edge_boxes[i]:
            sides[b] += 1
            if sides[b] == 4:
                claimed += 1
        self.unclaimed -= claimed
        return claimed

    def pop(self, i: int, claimed: int) -> None:
        self.drawn[i] = 0
        self.key ^= 1 << i
        self.undrawn += 1
        self.unclaimed += claimed
        sides = self.sides
        for b in self.g.edge_boxes[i]:
            sides[b] -= 1

    # -- move generation ----------------------------------------------------------

    def _strings(self, box: int) -> list[tuple[int, int]]:
        drawn = self.drawn
        return [(e, o) for e, o in self.g.around[box] if not drawn[e]]

    def capture_moves(self) -> list[int]:
        """Canonical capture moves: one free take, or take/decline at a decision."""
        sides = self.sides
        decisions: dict[frozenset[int], tuple[int, int, int]] = {}
        for c in range(len(sides)):
            if sides[c] != 3:
                continue
            ((take, o),) = self._strings(c)
            boxes = [c]
            e, end_open = take, False
            while True:
                if o == GROUND or sides[o] <= 1:
                    end_open = True
                    break
                boxes.append(o)
                if sides[o] == 3 or len(boxes) > 4:
                    break
                e, o = next((x, y) for x, y in self._strings(o) if x != e)
            n = len(boxes)
            if end_open and n == 2:
                decisions[frozenset(boxes)] = (2, take, e)
            elif not end_open and n == 4 and sides[boxes[-1]] == 3:
                middle = next(x for x, y in self._strings(boxes[1]) if y == boxes[2])
                decisions[frozenset(boxes)] = (4, take, middle)
            else:
                return [take]
        ordered = sorted(decisions.values(), reverse=True)
        if len(ordered) > 1:
            return [ordered[0][1]]  # take the costlier one to decline; decide on the last
        _, take, decline = ordered[0]
        return [take, decline]

    @staticmethod
    def opening_move(c: RawComponent) -> int:
        """The edge that hands a component out."""
        if c.kind == "loop":
            return c.inner[0]
        if c.length == 2:
            return c.inner[0]  # in the middle: the receiver cannot decline
        border = [e for e, end in zip(c.end_edges, c.ends, strict=True) if end == "border"]
        return border[0] if border else c.end_edges[0]

    def quiet_moves(self, comps: list[RawComponent], safe: list[int]) -> list[int]:
        seen: set[tuple[str, int]] = set()
        handouts = []
        for c in sorted(comps, key=lambda c: (c.length, c.kind)):
            if safe and (c.kind == "loop" or c.length > 2):
                continue
            if c.kind == "loop" or c.ends == ("border", "border"):
                shape = (c.kind, c.length)
                if shape in seen:
                    continue  # the same lone shape: the same outcome
                seen.add(shape)
            handouts.append(self.opening_move(c))
        return safe + handouts

    # -- evaluation ---------------------------------------------------------------

    def evaluate(self, comps: list[RawComponent]) -> int:
        """Chain-parity estimate for the side to move (no capturable box, not simple)."""
        long_chains = sum(1 for c in comps if c.kind == "chain" and c.length >= 3)
        loops = sum(1 for c in comps if c.kind == "loop")
        long_boxes = sum(c.length for c in comps if c.kind == "loop" or c.length >= 3)
        u = self.unclaimed
        if long_chains or loops:
            cv = long_boxes - 4 * long_chains - 8 * loops + (4 if long_chains else 8)
            cv += (u - sum(c.length for c in comps)) // 2  # boxes still to settle
        else:
            cv = u // 3
        value = max(2, min(cv, u))
        favoured = (self.undrawn - u + long_chains) % 2 == 1
        return value if favoured else -value

    def leaf_value(self, comps: list[RawComponent]) -> int:
        """The value of a search leaf: :meth:`evaluate`, or the safe-phase completions'."""
        if not self.playouts:
            return self.evaluate(comps)
        return self.completion_value()

    def completion_value(self) -> int:
        """Average value of random completions of the safe phase, for the side to move.

        Each completion draws safe edges in a random order until none is left
        (one pass suffices: an edge that gives a third side never becomes safe
        again), then values the resulting endgame: exactly when no junction is
        left (Berlekamp's chain-and-loop recursion), else by :meth:`evaluate`.
        Random completions are no minimax, but they count the long chains the
        safe phase is heading for, and who will have to open the first of them,
        far better than the chains already on the board do.  Each completion
        counts as nodes in proportion to its work, so the node limit still
        bounds the time.
        """
        g, drawn, sides, rng = self.g, self.drawn, self.sides, self.rng
        edge_boxes = g.edge_boxes
        candidates = [
            i
            for i, boxes in enumerate(edge_boxes)
            if not drawn[i] and all(sides[b] <= 1 for b in boxes)
        ]
        total = 0
        # A completion costs about as much as a search node per twelve edges it looks at.
        cost = 1 + len(candidates) // 12
        for _ in range(self.playouts):
            self.nodes += cost
            rng.shuffle(candidates)
            done = []
            for i in candidates:
                boxes = edge_boxes[i]
                if all(sides[b] <= 1 for b in boxes):
                    drawn[i] = 1
                    done.append(i)
                    for b in boxes:
                        sides[b] += 1
            comps = raw_components(g, drawn, sides)
            if min((x for x in sides if x < 4), default=4) >= 2:
                value = closed_value(*_shape(comps))
            else:
                self.undrawn -= len(done)
                value = self.evaluate(comps)
                self.undrawn += len(done)
            total += -value if len(done) % 2 else value
            for i in done:
                drawn[i] = 0
                for b in edge_boxes[i]:
                    sides[b] -= 1
        return round(total / self.playouts)

    # -- alpha-beta ----------------------------------------------------------------

    def negamax(self, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _Abort
        if self.deadline is not None and self.nodes >= self.next_clock:
            # Every 32 nodes or so (completions count several at once).
            self.next_clock = self.nodes + 32
            if self.deadline.passed():
                self.stopped = True
                raise _Abort
        if self.unclaimed == 0:
            return 0
        entry = self.table.get(self.key)
        tt_move = -1
        if entry is not None:
            e_depth, flag, value, tt_move = entry
            if e_depth >= depth:
                if e_depth < EXACT_DEPTH:
                    self.inexact += 1
                if flag == _EXACT_FLAG:
                    return value
                if flag == _LOWER and value >= beta:
                    return value
                if flag == _UPPER and value <= alpha:
                    return value
        sides = self.sides
        if 3 in sides:
            moves, cost = self.capture_moves(), 0
        else:
            comps = raw_components(self.g, self.drawn, sides)
            if min(s for s in sides if s < 4) >= 2:
                return closed_value(*_shape(comps))
            if depth <= 0:
                self.inexact += 1
                return self.leaf_value(comps)
            safe = [
                i
                for i, boxes in enumerate(self.g.edge_boxes)
                if not self.drawn[i] and all(sides[b] <= 1 for b in boxes)
            ]
            moves, cost = self.quiet_moves(comps, safe), 1
        if tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        inexact_before = self.inexact
        alpha0 = alpha
        best, best_move = -INF, moves[0]
        for i in moves:
            claimed = self.push(i)
            if claimed:
                value = claimed + self.negamax(depth - cost, alpha - claimed, beta - claimed)
            else:
                value = -self.negamax(depth - cost, -beta, -alpha)
            self.pop(i, claimed)
            if value > best:
                best, best_move = value, i
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT_FLAG
        stored_depth = EXACT_DEPTH if self.inexact == inexact_before else depth
        self.table[self.key] = (stored_depth, flag, best, best_move)
        return best

    def root(self, moves: list[int], depth: int) -> tuple[int, int]:
        """Best move and value at ``depth``; the first move wins ties."""
        best, best_move = -INF, moves[0]
        alpha, beta = -INF, INF
        self.partial = None
        for i in moves:
            claimed = self.push(i)
            try:
                if claimed:
                    value = claimed + self.negamax(depth - 1, alpha - claimed, beta - claimed)
                else:
                    value = -self.negamax(depth - 1, -beta, -alpha)
            finally:
                self.pop(i, claimed)
            if value > best:
                best, best_move = value, i
                alpha = max(alpha, value)
                self.partial = (best_move, best)
        return best_move, best


def _shape(comps: list[RawComponent]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    chains = tuple(sorted(c.length for c in comps if c.kind == "chain"))
    loops = tuple(sorted(c.length for c in comps if c.kind == "loop"))
    return chains, loops


def root_moves(board: Board) -> list[Edge]:
    """The moves the search considers in ``board`` (all legal moves never needed)."""
    g, drawn, sides = arrays(board)
    s = _Searcher(g, drawn, sides, max_nodes=1, deadline=None)
    return [g.edges[i] for i in s_moves(s)]


def s_moves(s: _Searcher) -> list[int]:
    if 3 in s.sides:
        return s.capture_moves()
    comps = raw_components(s.g, s.drawn, s.sides)
    safe = [
        i
        for i, boxes in enumerate(s.g.edge_boxes)
        if not s.drawn[i] and all(s.sides[b] <= 1 for b in boxes)
    ]
    return s.quiet_moves(comps, safe)


def search(
    board: Board,
    *,
    max_nodes: int,
    deadline: Deadline | float | None = None,
    seed: int = 0,
    max_depth: int = 64,
    playouts: int = 0,
    only: list[Edge] | None = None,
    table: dict | None = None,
) -> SearchResult:
    """Search ``board`` for the side to move within ``max_nodes`` nodes.

    On the native backend the C search (:func:`native_search`), else
    :func:`python_search`; the arguments as there (each takes a bare due time too).
    """
    native = _backend.use_native_search(board.width, board.height)
    return (native_search if native else python_search)(
        board,
        max_nodes=max_nodes,
        deadline=deadline,
        seed=seed,
        max_depth=max_depth,
        playouts=playouts,
        only=only,
        table=table,
    )


#: Entries of the C search's table kept in a caller's table dict (24 bytes each).
NATIVE_TABLE_ENTRIES = 1 << 19
#: The largest fresh table of one C search (a search fills about one entry a node).
NATIVE_FRESH_ENTRIES = 1 << 20


@cache
def _native_geometry(width: int, height: int) -> object:
    assert _backend.native_search is not None
    g = grid(width, height)
    return _backend.native_search.Geometry(width, height, g.edge_boxes, g.around)


def native_search(
    board: Board,
    *,
    max_nodes: int,
    deadline: Deadline | float | None = None,
    seed: int = 0,
    max_depth: int = 64,
    playouts: int = 0,
    only: list[Edge] | None = None,
    table: dict | None = None,
) -> SearchResult:
    """:func:`python_search` in C: the same algorithm, its own random numbers.

    ``table``: the caller's dict, as for :func:`python_search`; the C search
    keeps its fixed-size table in it under ``("native", width, height)``.
    Raises ``ValueError`` on a finished game or bad input.
    """
    module = _backend.native_search
    if module is None:
        raise ImportError("the C search (dotsboxes.engine._native_search) was not built")
    if board.is_over():
        raise ValueError("the game is over: no edge is left to draw")
    if table is None:
        native_table = module.Table(min(NATIVE_FRESH_ENTRIES, max(1024, 2 * max_nodes)))
    else:
        slot = ("native", board.width, board.height)
        native_table = table.get(slot)
        if native_table is None:
            native_table = table[slot] = module.Table(NATIVE_TABLE_ENTRIES)
    allowed = None
    if only is not None:
        allowed = sum(1 << board.index(e) for e in set(only)).to_bytes(16, "little")
    if isinstance(deadline, (int, float)):
        deadline = Deadline(deadline)
    # The C search reads the clock every 32 of its nodes (microseconds apart) and
    # stops at a fixed time: the Deadline's stop, from the gaps it knows; a late
    # return teaches it the gap the scheduler left.
    seconds = -1.0 if deadline is None else deadline.left()
    called = time.perf_counter()
    edge, value, depth, nodes, exact, stopped = module.search(
        _native_geometry(board.width, board.height),
        native_table,
        board.edge_bits.to_bytes(16, "little"),
        max(0, min(max_nodes, 1 << 62)),
        seed,
        seconds,
        max_depth,
        playouts,
        allowed,
    )
    if deadline is not None:
        deadline.late(time.perf_counter() - (called + seconds))
    return SearchResult(board.edges[edge], value, depth, nodes, exact, stopped)


def python_search(
    board: Board,
    *,
    max_nodes: int,
    deadline: Deadline | float | None = None,
    seed: int = 0,
    max_depth: int = 64,
    playouts: int = 0,
    only: list[Edge] | None = None,
    table: dict | None = None,
) -> SearchResult:
    """Search ``board`` for the side to move within ``max_nodes`` nodes (in Python).

    ``deadline`` (a :class:`.deadline.Deadline`, or the :func:`time.perf_counter`
    value the answer is due at) is a safety net only: the result depends on the
    node limit, the seed and ``max_depth`` alone while the deadline does not
    stop the search.  ``only``: the root moves to choose from (the
    solver proved the others worse); ``table``: the transposition table to use
    and fill (kept by the caller across moves), else a fresh one.  Raises
    ``ValueError`` on a finished game.
    """
    if board.is_over():
        raise ValueError("the game is over: no edge is left to draw")
    if isinstance(deadline, (int, float)):
        deadline = Deadline(deadline)
    if deadline is not None:
        deadline.look()  # what came before this search is not a gap between its looks
    g, drawn, sides = arrays(board)
    s = _Searcher(
        g,
        drawn,
        sides,
        max_nodes=max_nodes,
        deadline=deadline,
        playouts=playouts,
        rng=random.Random(f"{seed}:leaves:{board.key()}"),
    )
    if table is not None:
        s.table = table
    moves = s_moves(s)
    if only is not None:
        allowed = {board.index(e) for e in only}
        # The search's own moves the solver did not rule out; if it ruled out all of
        # them (it can prove an edge the search never generates best), its candidates.
        moves = [i for i in moves if i in allowed] or sorted(allowed)
    # The seed orders the safe moves (ties go to the first searched); hand-outs
    # stay last, smallest first, so an interrupted search still answers sensibly.
    safe = [i for i in moves if all(sides[b] <= 1 for b in g.edge_boxes[i])]
    random.Random(f"{seed}:{board.key()}").shuffle(safe)
    moves = safe + [i for i in moves if i not in safe]
    if len(moves) == 1:
        return SearchResult(g.edges[moves[0]], 0, 0, 0, False)
    if 3 not in sides and min((x for x in sides if x < 4), default=4) >= 2:
        # A simple endgame: value every hand-out exactly, no search needed.
        return _simple_root(board, s, moves)
    best_move, best_value, done_depth, exact = moves[0], 0, 0, False
    for depth in range(1, max_depth + 1):
        inexact_before = s.inexact
        try:
            move, value = s.root(moves, depth)
        except _Abort:
            # A move that beat the finished iteration's best in the unfinished one
            # (searched to that depth, it beat the best at that depth) is kept: in 220
            # stops where the two differ it lost 524 boxes against 626 (solved
            # positions), and with no iteration finished the first move in order did
            # as well as the best one valued (tests/bench/time_guarantee.py partial).
            if s.partial is not None and done_depth and s.partial[0] != moves[0]:
                best_move, best_value = s.partial
            break
        best_move, best_value, done_depth = move, value, depth
        exact = s.inexact == inexact_before
        moves.remove(move)
        moves.insert(0, move)
        if exact:
            break
    return SearchResult(g.edges[best_move], best_value, done_depth, s.nodes, exact, s.stopped)


def _simple_root(board: Board, s: _Searcher, moves: list[int]) -> SearchResult:
    best, best_move = -INF, moves[0]
    for i in moves:
        claimed = s.push(i)
        comps = raw_components(s.g, s.drawn, s.sides)
        if s.unclaimed == 0:
            value = claimed
        elif claimed:
            value = claimed + simple_endgame_value(comps)
        else:
            value = -simple_endgame_value(comps)
        s.pop(i, claimed)
        if value > best:
            best, best_move = value, i
    return SearchResult(s.g.edges[best_move], best, 0, len(moves), True)
