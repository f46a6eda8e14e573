"""Computer players by level, from beginner to master, and move hints.

=========  ==============================================================
beginner   takes every box it is offered, otherwise draws loosely
casual     takes every box, never draws a third side while it can avoid
           it, and then gives away the fewest boxes it can
club       knows chains and loops, the long-chain rule and double-dealing:
           one ply of the chain-aware search (:mod:`.search`), each leaf
           valued by random completions of the safe phase (which count the
           long chains it heads for and who must open the first), every
           take-or-decline line seen to its end, simple endgames exact (0.1 s)
expert     the same knowledge, searched as deep as its budget allows (0.5 s)
master     the exact solver whenever it finishes inside the budget,
           otherwise the expert's search with the rest of its 2 s
=========  ==============================================================

The levels differ by knowledge first (beginner, casual, club), then by how far
they look ahead and how much time they have (club, expert, master).

**Budgets and determinism.**  ``budget`` is in seconds.  Searches are limited
by node counts derived from the budget (:data:`NODE_RATE` nodes and
:data:`SOLVER_RATE` solver nodes per second of budget, about half of what one
core of the reference machine manages), so the same position, level, budget
and seed always give the same edge, on any machine.  The clock is the safety
net for a loaded machine: the answer is due when the budget is spent, counted
from the call (imports and first-move tables included), and a
:class:`.deadline.Deadline` stops the thinking while the longest gap the
scheduler has left between two looks at the clock still fits twice before
that; the 10 % above the budget is the margin for the unforeseen.  A stopped
move is the best the engine has: what the solver proved (a proved-best move,
or the moves not proved worse) and the deepest search iteration finished
among those, never a move from an unfinished one.  ``hard_stop=False`` leaves
the node limits alone in charge.
"""

from __future__ import annotations

import gc
import importlib
import random
import time
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType

from dotsboxes.rules import Board, Edge

from . import _backend, backend_name
from . import search as _search
from ._backend import search_backend_name
from .analysis import Analysis, analyse, arrays, raw_components
from .deadline import Deadline

LEVELS = ("beginner", "casual", "club", "expert", "master")
DEFAULT_LEVEL = "casual"

#: Search nodes per second of budget, per search core.  Python: about half of
#: what one core of the reference machine manages (40 to 100 thousand a second,
#: safe-phase completions counted by their work), so a search normally ends
#: well inside its budget.  The C search runs about 4 million a second, but
#: more nodes did not play better (master against master at 0.05 s with 20,000,
#: 100,000 and 1,000,000: tests/bench/search_core.py match, docs/ENGINE.md), so
#: it searches as far as Python and leaves the time to the solver and the machine.
NODE_RATES = {"python": 20_000, "native": 20_000}
NODE_RATE = NODE_RATES[search_backend_name()]
#: Solver nodes per second of budget, per solver core (it gets
#: :data:`SOLVER_SHARE` of the budget): about half of what the core runs.  Python
#: runs 80 to 130 thousand a second; native 1.4 to 2.5 million on 5 x 5 positions
#: with 30 to 40 edges undrawn (load 15 on 2 cores; tests/bench/native.py rates).
SOLVER_RATES = {"python": 60_000, "native": 800_000}
SOLVER_RATE = SOLVER_RATES[backend_name()]
#: Share of the master's budget the solver may use (its rounds together).
SOLVER_SHARE = 0.85
#: The solver's rounds, as shares of its nodes: cheap first, each starting
#: from the table the previous one filled (together 1.0).
SOLVER_ROUNDS = (1 / 64, 3 / 64, 12 / 64, 48 / 64)
#: The smallest solver round, in nodes (a few milliseconds).
SOLVER_MIN_NODES = 500
#: The measured growth of the solver's work with safe edges (see solver_reach).
SOLVER_EASIEST = 1.0
SOLVER_GROWTH = 1.6
#: How many equally good moves the master compares for the opponent's chances to err.
MAX_TRAPS = 8
#: How the club and the expert search: the depth limit in the middle game,
#: the number of safe edges left at or below which they search as deep as
#: their budgets allow instead (to see the end of the safe phase), and the
#: random completions of the safe phase that value each leaf (0: the static
#: chain-parity estimate; see :meth:`.search._Searcher.completion_value`).
STYLE = {
    "club": (1, 0, 4),
    "expert": (64, 64, 8),
}
#: The master's leaf completions, used while more than
#: :data:`MASTER_STATIC_SAFE_EDGES` safe edges are left.
MASTER_PLAYOUTS = 8
MASTER_STATIC_SAFE_EDGES = 12

_BASE_BUDGET = {"beginner": 0.05, "casual": 0.05, "club": 0.1, "expert": 0.5, "master": 2.0}
#: The smallest default budget of a searching level, whatever the board: on a
#: small board a search needs a few hundred nodes to see the end of the game.
_MIN_BUDGET = {"club": 0.05, "expert": 0.1, "master": 0.25}


def default_budget(level: str, board: Board) -> float:
    """Seconds per move a level gets by default: master 2 s on 5 x 5 boxes.

    Searching levels scale with the square of the number of edges (a 5 x 5
    board has 60), between a tenth and twice the 5 x 5 figure: small boards
    need far less time for the same insight.
    """
    _check_level(level)
    base = _BASE_BUDGET[level]
    if level in ("beginner", "casual"):
        return base
    scale = min(2.0, max(0.1, (len(board.edges) / 60) ** 2))
    return max(_MIN_BUDGET[level], round(base * scale, 3))


def choose(
    board: Board,
    *,
    level: str = DEFAULT_LEVEL,
    budget: float | None = None,
    seed: int = 0,
    hard_stop: bool = True,
    game: Game | Hashable | None = None,
) -> Edge:
    """The edge the computer draws next for the side to move.

    ``budget`` is in seconds (``None``: :func:`default_budget`); the call returns
    within it plus 10 %, imports and first-move tables included (the scheduler
    permitting: see :mod:`.deadline`).  Same board, level, budget and seed: same
    edge, as long as the clock does not stop the thinking (only on a loaded
    machine; it then answers with the best it has, see the module docstring).
    ``hard_stop=False`` leaves the node limits alone in charge: the same edge
    on any machine however loaded, but no guarantee on wall time (for
    analysis, benchmarks and tests).  ``game``: a :class:`Game` whose tables
    the master uses and keeps, or a key (a game's id) for this process's
    :func:`game_memory`; ``None``: fresh tables, nothing kept.  Raises
    ``ValueError`` for an unknown level or a finished game.
    """
    _check_level(level)
    if board.is_over():
        raise ValueError("the game is over: no edge is left to draw")
    if budget is None:
        budget = default_budget(level, board)
    if budget <= 0:
        raise ValueError(f"the time budget must be positive, not {budget}")
    start = time.perf_counter()
    rng = random.Random(f"{seed}:{level}:{board.key()}")
    if level == "beginner":
        return _beginner(board, rng)
    if level == "casual":
        return _casual(board, rng)
    deadline = Deadline(start + budget) if hard_stop else None
    with _no_gc():
        if level in STYLE:
            depth, horizon, playouts = STYLE[level]
            if depth < 64 and sum(1 for e in board.legal_moves if is_safe(board, e)) <= horizon:
                depth = 64
            return _searched(board, budget, deadline, seed, max_depth=depth, playouts=playouts)
        if game is None:
            game = Game()
        elif not isinstance(game, Game):
            game = game_memory(game)
        return _think(board, budget, deadline, seed, game, start).edge


@contextmanager
def _no_gc() -> Iterator[None]:
    """Pause the cycle collector: search tables are large and hold no cycles,
    and a full collection in the middle of a search can overrun the budget."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")


# -- the simple levels ----------------------------------------------------------


def _beginner(board: Board, rng: random.Random) -> Edge:
    moves = board.legal_moves
    takes = [e for e in moves if board.claims(e)]
    if takes:
        return rng.choice(takes)
    safe = [e for e in moves if is_safe(board, e)]
    if safe and rng.random() < 0.5:
        return rng.choice(safe)
    return rng.choice(moves)


def _casual(board: Board, rng: random.Random) -> Edge:
    moves = board.legal_moves
    takes = [e for e in moves if board.claims(e)]
    if takes:
        return rng.choice(takes)
    safe = [e for e in moves if is_safe(board, e)]
    if safe:
        return rng.choice(safe)
    # Every edge gives boxes away: hand out the smallest chain or loop.
    g, drawn, sides = arrays(board)
    components = raw_components(g, drawn, sides)
    least = min(c.length for c in components)
    smallest = [c for c in components if c.length == least]
    return g.edges[_search._Searcher.opening_move(rng.choice(smallest))]


def is_safe(board: Board, edge: Edge) -> bool:
    """Whether drawing ``edge`` gives no box its third side (the opponent takes nothing)."""
    return all(board.sides(box) < 2 for box in board.edge_boxes(edge))


# -- the searching levels ---------------------------------------------------------


def _searched(
    board: Board,
    budget: float,
    deadline: Deadline | None,
    seed: int,
    *,
    max_depth: int,
    playouts: int,
) -> Edge:
    nodes = max(100, int(budget * NODE_RATE))
    return _search.search(
        board,
        max_nodes=nodes,
        deadline=deadline,
        seed=seed,
        max_depth=max_depth,
        playouts=playouts,
    ).edge


def prepare(board: Board) -> None:
    """Do the one-time work of ``board``'s size now: the solver's import and its
    symmetry tables, the C search's tables (a few to tens of milliseconds that a
    first move would otherwise take from its budget; the protocol calls this
    when it is given a board size)."""
    solver = _solver()
    if solver is not None:
        geo = solver.geometry(board.width, board.height)
        if _backend.use_native(geo):
            _backend.native_geometry(geo)
    if _backend.use_native_search(board.width, board.height):
        _search._native_geometry(board.width, board.height)


def _solver() -> ModuleType | None:
    """The exact solver module, if this installation has it."""
    try:
        return importlib.import_module("dotsboxes.engine.solver")
    except ImportError:
        return None


@dataclass(frozen=True)
class Thought:
    """A master's move and what it knows about it.

    ``value``: the side to move's final margin over the unclaimed boxes, as
    the solver proved it (``exact``) or the search estimated it (``None`` if
    neither valued it).  ``nodes``: solver and search nodes used;
    ``seconds``: wall time.  ``proved``: the solver proved the move best
    (always when ``exact``; also when it proved every other move worse
    without settling the value).  ``stopped``: the clock, not the node
    limits, ended the thinking (a loaded machine).
    """

    edge: Edge
    value: int | None
    exact: bool
    nodes: int
    seconds: float
    proved: bool = False
    stopped: bool = False


class Game:
    """What the engine keeps between the moves of one game: its tables.

    The solver's transposition table (:class:`.solver.Table`, one per board
    size, sized by ``megabytes``, default :data:`.solver.TABLE_MB`) and the
    search's table.  The next move starts from what the previous ones proved:
    a position the solver settled one move ago is settled again at once.  The
    table holds proved facts about positions, so any position may be asked
    about (an undo, another line); it only makes the solver finish sooner.

    Determinism: a fresh ``Game`` given the same calls gives the same moves
    (:func:`choose` without ``game`` uses a fresh one for every move).
    """

    def __init__(self, *, megabytes: float | None = None) -> None:
        self.megabytes = megabytes
        self._tables: dict[tuple[int, int], object] = {}
        self._search_tables: dict[tuple[int, int], dict] = {}

    def solver_table(self, board: Board):
        """The solver's table for ``board``'s size (``None`` without the solver)."""
        solver = _solver()
        if solver is None:
            return None
        size = (board.width, board.height)
        if size not in self._tables:
            self._tables[size] = solver.Table(megabytes=self.megabytes)
        return self._tables[size]

    def search_table(self, board: Board) -> dict:
        table = self._search_tables.setdefault((board.width, board.height), {})
        if len(table) > SEARCH_TABLE_LIMIT:
            table.clear()  # only move ordering and estimates are lost
        return table

    def choose(
        self,
        board: Board,
        *,
        level: str = DEFAULT_LEVEL,
        budget: float | None = None,
        seed: int = 0,
        hard_stop: bool = True,
    ) -> Edge:
        """:func:`choose`, with this game's tables."""
        return choose(board, level=level, budget=budget, seed=seed, hard_stop=hard_stop, game=self)

    def think(
        self,
        board: Board,
        *,
        budget: float | None = None,
        seed: int = 0,
        hard_stop: bool = True,
    ) -> Thought:
        """The master's move with its value, whether that is proved, nodes and time."""
        return self._think(board, budget, seed, hard_stop, time.perf_counter())

    def _think(
        self, board: Board, budget: float | None, seed: int, hard_stop: bool, start: float
    ) -> Thought:
        if board.is_over():
            raise ValueError("the game is over: no edge is left to draw")
        if budget is None:
            budget = default_budget("master", board)
        if budget <= 0:
            raise ValueError(f"the time budget must be positive, not {budget}")
        deadline = Deadline(start + budget) if hard_stop else None
        with _no_gc():
            return _think(board, budget, deadline, seed, self, start)


#: Entries of a game's search table before it is emptied (between moves).
SEARCH_TABLE_LIMIT = 300_000
#: Games whose tables a process keeps (:func:`choose` with ``game=``), least
#: recently used dropped first: the web app's engine workers serve many games.
#: Each gets :data:`.solver.TABLE_MB` divided by this, so a worker stays
#: within the setting however many games it serves.
GAMES_KEPT = 4
_games: OrderedDict[Hashable, Game] = OrderedDict()


def game_memory(key: Hashable) -> Game:
    """This process's :class:`Game` for ``key`` (a game's id), made on first use."""
    game = _games.pop(key, None)
    if game is None:
        solver = _solver()
        mb = None if solver is None else solver.TABLE_MB / GAMES_KEPT
        game = Game(megabytes=mb)
    _games[key] = game
    while len(_games) > GAMES_KEPT:
        _games.popitem(last=False)
    return game


def _master(
    board: Board, budget: float, deadline: Deadline | None, seed: int, game: Game | None = None
) -> tuple[Edge, int | None, bool]:
    """Master's move, its value if known, and whether that value is exact."""
    t = _think(board, budget, deadline, seed, game or Game(), time.perf_counter())
    return t.edge, t.value, t.exact


def _think(
    board: Board, budget: float, deadline: Deadline | None, seed: int, game: Game, start: float
) -> Thought:
    """Solver first, the search with what the solver proved otherwise.

    The solver is tried in rounds of growing node limits (:data:`SOLVER_ROUNDS`
    of the solver's share): a position it can settle cheaply costs little,
    and each round starts from the table the previous one filled.  Before a
    larger round, :func:`solver_reach` predicts from measurement whether it
    can finish; if not, the rest of the budget goes to the search.  Node
    limits, not the clock, decide, so the move is the same on any machine.

    On a loaded machine the clock ends the solver's rounds at
    :data:`SOLVER_SHARE` of the time to the stop, so the search keeps its share
    of the wall time, and the search at the stop; the move is then the best
    known: proved best, else the search's among the moves not proved worse.
    """
    solver = _solver()
    limit = int(budget * SOLVER_SHARE * SOLVER_RATE)
    spent = 0
    stopped = False
    only: list[Edge] | None = None
    legal = board.legal_moves
    # With no time left at all (a loaded machine's gaps are longer than the
    # budget) the solver sits this move out: the search's first look answers.
    rushed = deadline is not None and deadline.left() == 0
    if solver is not None and len(legal) > 1 and not rushed:
        table = game.solver_table(board)
        safe = sum(1 for e in legal if is_safe(board, e))
        for share in SOLVER_ROUNDS:
            nodes = max(SOLVER_MIN_NODES, int(limit * share))
            if spent and not solver_reach(safe, spent + nodes):
                break  # clearly out of reach: the search gets the rest
            until = _solver_until(deadline, start)
            if spent and until is not None and until <= time.perf_counter():
                stopped = True
                break  # the first round runs for a millisecond at least: a position
                # this game's table has settled is settled again at once
            solution = solver.solve(board, budget=_left(until), max_nodes=nodes, table=table)
            if solution is not None:
                spent += solution.nodes
                edge = _proved_best(solver, board, solution, seed, deadline, start, limit, table)
                seconds = time.perf_counter() - start
                return Thought(edge, solution.value, True, spent, seconds, proved=True)
            spent += nodes
            if until is not None and time.perf_counter() >= until:
                stopped = True
                _learn_lateness(deadline, until)
                break
        # What the rounds proved.  A move whose lower bound reaches every move's
        # upper bound is best and its value exact (the last round often ends while
        # testing which moves reach a value it has already found).
        stop = None if deadline is None else deadline.stop_at()
        bounds = solver.move_bounds(board, table, deadline=stop)
        top = max(hi for _, hi in bounds.values())
        proved = [e for e in legal if bounds[e][0] >= top]
        if proved:
            rng = random.Random(f"{seed}:master:{board.key()}")
            edge = rng.choice([e for e in proved if board.claims(e)] or proved)
            seconds = time.perf_counter() - start
            return Thought(edge, top, True, spent, seconds, proved=True, stopped=stopped)
        # Moves proved worse than another are out.
        floor = max(lo for lo, _ in bounds.values())
        only = [e for e in legal if bounds[e][1] >= floor]
        if len(only) == 1:
            # Every other move is proved worse: this one is best, its value not settled.
            seconds = time.perf_counter() - start
            return Thought(only[0], None, False, spent, seconds, proved=True, stopped=stopped)
    elif len(legal) == 1:
        return Thought(legal[0], None, False, 0, time.perf_counter() - start)
    stopped = stopped or rushed
    # The search gets what the solver left of the budget.
    used = spent / SOLVER_RATE
    nodes = max(200, int((budget - used) * NODE_RATE))
    # Completions pay while the safe phase is long; once it is short the
    # search gets deeper with the static chain-parity leaves, and sees more.
    safe = sum(1 for e in legal if is_safe(board, e))
    playouts = MASTER_PLAYOUTS if safe > MASTER_STATIC_SAFE_EDGES else 0
    result = _search.search(
        board,
        max_nodes=nodes,
        deadline=deadline,
        seed=seed,
        playouts=playouts,
        only=only,
        table=game.search_table(board),
    )
    return Thought(
        result.edge,
        result.value,
        False,
        spent + result.nodes,
        time.perf_counter() - start,
        stopped=stopped or result.stopped,
    )


def _solver_until(deadline: Deadline | None, start: float) -> float | None:
    """When the solver's rounds must end: :data:`SOLVER_SHARE` of the time to the stop."""
    if deadline is None:
        return None
    return start + SOLVER_SHARE * (deadline.stop_at() - start)


def _learn_lateness(deadline: Deadline | None, until: float | None) -> None:
    """A solver stopped by the clock returned this late: the scheduler's gap."""
    if deadline is not None and until is not None:
        deadline.late(time.perf_counter() - until)


def _proved_best(solver, board, solution, seed, deadline, start, limit, table) -> Edge:
    """One of the solver's best moves: a capture if any, else the trappiest."""
    rng = random.Random(f"{seed}:master:{board.key()}")
    captures = [e for e in solution.best if board.claims(e)]
    if captures:
        return rng.choice(captures)
    best = list(solution.best)
    rng.shuffle(best)
    if len(best) > 1 and solution.nodes * 4 < limit:
        until = _solver_until(deadline, start)
        best = _trappiest(solver, board, best, until, limit // (2 * MAX_TRAPS), table)
        _learn_lateness(deadline, until)
    return best[0]


def solver_reach(safe: int, nodes: int) -> bool:
    """Whether the solver may settle a position with ``safe`` safe edges in ``nodes``.

    From the endgame suite (``tests/bench/endgames.py``): the nodes the solver
    needs grow about :data:`SOLVER_GROWTH` times per safe edge; a round is
    only tried when the easiest positions with that many safe edges fit.
    """
    return nodes >= SOLVER_EASIEST * SOLVER_GROWTH**safe


def _left(until: float | None) -> float | None:
    """Seconds to ``until`` (``None``: no clock), at least a millisecond."""
    return None if until is None else max(0.001, until - time.perf_counter())


def _trappiest(
    solver: ModuleType,
    board: Board,
    best: list[Edge],
    deadline: float | None,
    max_nodes: int,
    table=None,
) -> list[Edge]:
    """Equally good moves, those that leave the opponent fewest right answers first.

    Best play cannot do better than the value, but a fallible opponent errs
    more where few of its replies keep the value: that is how a lost
    position is saved and a won one won by more.  The replies that count are
    the plausible ones: an opponent who knows a little draws a safe edge while
    there is one.  Each reply position is solved within ``max_nodes`` nodes
    (the solver's table is warm from the position itself), so the order is
    the same on any machine unless the hard stop fires.
    """
    scores: dict[Edge, float] = {}
    for edge in best[:MAX_TRAPS]:
        board.push(edge)
        try:
            if board.is_over() or board.last_claimed:
                continue
            replies = solver.solve(board, budget=_left(deadline), max_nodes=max_nodes, table=table)
            plausible = [e for e in board.legal_moves if is_safe(board, e)] or board.legal_moves
        finally:
            board.pop()
        if replies is None:
            break  # out of nodes or time: keep the order found so far
        right = set(replies.best)
        scores[edge] = sum(1 for e in plausible if e in right) / len(plausible)
    return sorted(best, key=lambda e: scores.get(e, 1.0))


# -- hints -------------------------------------------------------------------------


@dataclass(frozen=True)
class Hint:
    """A suggested edge and one plain-English line saying why.

    ``value`` is the side to move's final margin over the unclaimed boxes when
    the solver proved it, else ``None``; ``exact`` says whether the move was
    proved best (the reason says so too: "proved" or "estimated").
    """

    edge: Edge
    reason: str
    value: int | None = None
    exact: bool = False


def hint(
    board: Board,
    *,
    budget: float | None = None,
    hard_stop: bool = True,
    game: Game | Hashable | None = None,
) -> Hint:
    """The master's move for the side to move, with its reason.

    ``hard_stop`` and ``game`` as in :func:`choose`.  Raises ``ValueError`` on
    a finished game.
    """
    start = time.perf_counter()
    if board.is_over():
        raise ValueError("the game is over: no edge is left to draw")
    if budget is None:
        budget = default_budget("master", board) / 2
    if game is None:
        game = Game()
    elif not isinstance(game, Game):
        game = game_memory(game)
    analysis = analyse(board)  # before thinking, so that its time counts in the budget
    t = game._think(board, budget, 0, hard_stop, start)
    reason = explain(board, t.edge, analysis)
    if t.exact and t.value is not None:
        reason += "; proved: " + _outlook(t.value)
    elif t.proved:
        reason += "; proved the best move (every other is worse)"
    else:
        reason += "; estimated, not proved"
    return Hint(t.edge, reason, t.value if t.exact else None, t.proved)


def _outlook(value: int) -> str:
    if value > 0:
        return f"with best play you take {value} more of the remaining boxes"
    if value < 0:
        return f"with best play you take {-value} fewer of the remaining boxes"
    return "with best play the remaining boxes split evenly"


def explain(board: Board, edge: Edge, analysis: Analysis) -> str:
    """Why ``edge`` is a sensible move here, in one plain line."""
    a = analysis
    claims = board.claims(edge)
    component = next((c for c in a.components if edge in c.edges), None)
    if claims == 2:
        return "take both boxes with one line"
    if claims:
        if a.loony and component is not None and _last_of_offer(component):
            return "take the boxes: keeping control here would cost more than it gains"
        return "take the box"
    if a.capturable:
        if (
            component is not None
            and component.kind == "chain"
            and component.ends.count("opened") == 2
        ):
            return "decline the last four boxes of the loop to keep control"
        return "decline the last two boxes to keep control"
    if edge in a.safe_edges:
        return "safe: creates no third side"
    if component is None:
        return "every move gives boxes away here"
    n = component.length
    boxes = f"{n} box{'es' * (n != 1)}"
    if a.safe_edges:
        return f"sacrifice {boxes} to change the long-chain parity"
    shortest = min(c.length for c in a.components)
    if component.kind == "loop":
        return f"open the loop of {boxes}: it costs the controller more to keep control"
    if n == shortest:
        return f"open the shortest chain ({boxes}): every move gives boxes away now"
    return f"open the chain of {boxes}: every move gives boxes away now"


def _last_of_offer(component) -> bool:
    if component.ends.count("opened") == 2:
        return component.length == 4
    return component.length == 2
