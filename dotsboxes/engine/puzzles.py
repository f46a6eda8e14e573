"""Puzzles: positions whose best move is unique, proved by the solver, and their themes.

Pure (no Django): the ``build_puzzles`` command and the benchmark call it.

What makes a puzzle
-------------------
A position qualifies when the side to move (the **player**) has exactly one
best move, or one **family** of best moves that are the same idea, and every
other move loses at least :data:`MIN_LOSS` boxes against best play.  Both
facts come from :func:`solver.close_moves`, exact, never estimated.

A family is either the symmetric twins of one move (the positions after them
are the same up to the board's symmetries, which the solver's canonical key
already knows, corners' two outer sides included), or edges of one chain or
loop (wherever a chain is opened, the same boxes are handed over).  Every
move of the family is accepted as the answer.

The **line**: after the player's move, the solver's best reply (the first
best move in board order, so the line is the same every time) is played, and
the player must again find a unique best move.  A step answered by a family of
several moves ends the line (the replies stored follow its first move only).
Extra moves after a claim belong to the same turn and are asked for in the
same way.  The line ends when
no move is unique, the game ends, or after :data:`MAX_PLAYER_MOVES` of the
player's moves (at the end of that turn), so that a long capture does not
become a chore.  A line is only kept if it asks for a real decision: a move
that claims nothing, or a capture where declining (double-dealing) was there
to be tried.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from dotsboxes.rules import Board, Edge, Player

from . import solver as _solver
from ._bits import geometry
from .analysis import analyse
from .annotate import is_double_deal

#: Every move other than the answer loses at least this many boxes.
MIN_LOSS = 2
#: The player's moves in one line, at most (the line stops at the end of that turn).
MAX_PLAYER_MOVES = 8
#: Solver nodes per position of a candidate (more than this: not a puzzle, skip it).
NODES = 200_000
#: Bump when the meaning of the output changes (stored puzzles record it).
VERSION = 2

#: Theme slugs in the order they are preferred when more than three fit.
THEMES = (
    "hard-hearted-handout",
    "all-but-four",
    "all-but-two",
    "loop-before-chain",
    "shortest-chain",
    "take-all",
    "double-dealing",
    "sacrifice",
    "counting",
    "control",
)
MAX_THEMES = 3


@dataclass(frozen=True)
class Step:
    """One move of a puzzle's line.

    ``player``: whether it is the solver's player (else the reply).  ``edge``:
    the move the line follows; ``accepted``: every move that counts as right
    (for a reply, just ``edge``); ``value``: the position's value for its mover.
    """

    player: bool
    edge: Edge
    accepted: tuple[Edge, ...]
    value: int

    def as_dict(self) -> dict:
        return {
            "player": self.player,
            "edge": str(self.edge),
            "accepted": [str(e) for e in self.accepted],
            "value": self.value,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Step:
        return cls(
            data["player"],
            Edge.parse(data["edge"]),
            tuple(Edge.parse(e) for e in data["accepted"]),
            data["value"],
        )


@dataclass
class Puzzle:
    """A position (``board``, its history kept on the stack) and its proved line."""

    board: Board
    line: list[Step]
    themes: list[str] = field(default_factory=list)
    nodes: int = 0

    @property
    def player(self) -> Player:
        return self.board.turn


def one_family(board: Board, moves: Iterable[Edge]) -> bool:
    """Whether ``moves`` are one idea: symmetric twins, or edges of one chain or loop.

    >>> board = Board(2, 1)  # the empty 2 x 1 board: its four corners' sides are twins
    >>> one_family(board, [Edge.parse("a1-b1"), Edge.parse("c2-b2")])
    True
    >>> one_family(board, [Edge.parse("a1-b1"), Edge.parse("b1-b2")])
    False
    """
    moves = list(moves)
    if len(moves) <= 1:
        return True
    geo = geometry(board.width, board.height)
    bits = board.edge_bits
    keys = {geo.canonical(bits | 1 << board.index(e))[0] for e in moves}
    if len(keys) == 1:
        return True
    if any(board.claims(e) for e in moves):
        return False
    return any(
        set(moves) <= set(c.edges) for c in analyse(board).components
    )  # a chain opened anywhere hands over the same boxes


def _unique(board: Board, nodes: int, table: _solver.Table | None):
    """The solution if the side to move has one best family and all else loses enough."""
    result = _solver.close_moves(board, boxes=MIN_LOSS, max_nodes=nodes, table=table)
    if result is None:
        return None, False
    solution, close = result
    return solution, not close and bool(solution.best) and one_family(board, solution.best)


def find_line(
    board: Board, *, nodes: int = NODES, table: _solver.Table | None = None
) -> tuple[list[Step], int] | None:
    """The proved line from ``board`` (see the module docstring), or ``None``.

    Returns the steps and the solver nodes used.  ``None`` when the first
    position is not a puzzle or the solver could not settle it in ``nodes``.
    """
    if len(board.legal_moves) < 3:
        return None
    player = board.turn
    b = board.copy(stack=False)
    line: list[Step] = []
    used = 0
    player_moves = 0
    while not b.is_over():
        if b.turn is player:
            if player_moves >= MAX_PLAYER_MOVES and line and not line[-1].player:
                break
            solution, unique = _unique(b, nodes, table)
            if solution is not None:
                used += solution.nodes
            if not unique:
                break
            edge = solution.best[0]
            line.append(Step(True, edge, solution.best, solution.value))
            player_moves += 1
            if len(solution.best) > 1:
                # Any move of the family is right, but the replies stored are the ones
                # to the first: a family's step must be the line's last.
                break
        else:
            solution = _solver.solve(b, max_nodes=nodes, table=table)
            if solution is None:
                break
            used += solution.nodes
            edge = solution.best[0]
            line.append(Step(False, edge, (edge,), solution.value))
        b.push(edge)
    line = _whole_turns(board, line)
    if not line or not _asks_a_decision(board, line):
        return None
    return line, used


def _whole_turns(board: Board, line: list[Step]) -> list[Step]:
    """``line`` cut back to the end of a player's turn (or of the game).

    A line that stops in the middle of the player's turn (the next capture
    or decline is not unique) would leave the decision half made: drop back to
    where the player's last turn ended, or to nothing.
    """
    b = board.copy(stack=False)
    ends = [0]  # line lengths after which the turn has passed from the player
    for i, step in enumerate(line):
        claimed = b.claims(step.edge)
        b.push(step.edge)
        if step.player and (not claimed or b.is_over()):
            ends.append(i + 1)
    return line[: ends[-1]]


def _asks_a_decision(board: Board, line: list[Step]) -> bool:
    b = board.copy(stack=False)
    for step in line:
        if step.player:
            if not b.claims(step.edge):
                return True
            if any(is_double_deal(b, e) for e in b.legal_moves):
                return True
        b.push(step.edge)
    return False


def find(board: Board, *, nodes: int = NODES, table: _solver.Table | None = None) -> Puzzle | None:
    """The puzzle at ``board`` with its themes, or ``None`` if it is not one."""
    found = find_line(board, nodes=nodes, table=table)
    if found is None:
        return None
    line, used = found
    themes = detect_themes(board, line)
    if not themes:
        return None
    return Puzzle(board.copy(), line, themes, used)


# -- themes ---------------------------------------------------------------------


def _opens(board: Board, edge: Edge):
    """The component whose undrawn edge ``edge`` is (None if none)."""
    for c in analyse(board).components:
        if edge in c.edges:
            return c
    return None


def _pairs_after(board: Board, edge: Edge) -> int:
    """How many moves take two boxes at once after ``edge`` (double-crosses offered)."""
    board.push(edge)
    try:
        return sum(1 for e in board.legal_moves if board.claims(e) == 2)
    finally:
        board.pop()


def _hands_over(board: Board, edge: Edge) -> bool:
    """Whether ``edge`` claims nothing and gives some box its third side."""
    if board.claims(edge):
        return False
    return any(board.sides(b) == 2 for b in board.edge_boxes(edge))


def _controller_at_end(board: Board, line: list[Step]) -> Player | None:
    """Who the long-chain rule favours once the line is played (None: no long chain)."""
    b = board.copy(stack=False)
    for step in line:
        b.push(step.edge)
    a = analyse(b)
    if not (a.long_chains or a.loops):
        return None
    return a.controller or a.favoured


def detect_themes(board: Board, line: list[Step]) -> list[str]:
    """One to three theme slugs (:data:`THEMES`) for the puzzle ``board`` + ``line``.

    Read from the player's moves along the line, with :func:`analysis.analyse`
    of each position (chains, loops, safe edges, parity):

    * **double-dealing**: a move declines boxes on offer (``annotate.is_double_deal``);
      **all-but-two** when it leaves one double-cross (a chain),
      **all-but-four** when it leaves two (a loop);
    * **take-all**: a capture where double-dealing was possible (the player keeps
      taking instead of declining);
    * **hard-hearted-handout**: a two-chain opened in its middle, so that the
      opponent cannot decline it;
    * **shortest-chain**: with no safe edge left, the move opens the shortest of
      components of different lengths; **loop-before-chain**: it opens a loop
      while a long chain is left;
    * **sacrifice**: the move hands boxes over while safe edges were left;
    * **counting**: with safe edges left, the move changes the number of long
      chains in the player's favour (the long-chain rule);
    * **control**: after the line the player is the one in control (or
      favoured by the long-chain rule), and the line fought for it (a
      sacrifice, a double-deal, or counting).
    """
    player = board.turn
    found: set[str] = set()
    takes_with_choice = False
    b = board.copy(stack=False)
    for step in line:
        if not step.player:
            b.push(step.edge)
            continue
        edge = step.edge
        a = analyse(b)
        dd_possible = any(is_double_deal(b, e) for e in b.legal_moves)
        if is_double_deal(b, edge):
            found.add("double-dealing")
            pairs = _pairs_after(b, edge)
            found.add("all-but-four" if pairs >= 2 else "all-but-two")
        elif b.claims(edge) and dd_possible:
            takes_with_choice = True
        elif _hands_over(b, edge):
            comp = _opens(b, edge)
            if a.safe_edges:
                found.add("sacrifice")
            elif comp is not None:
                closed = [c for c in a.components if not c.opened]
                if (
                    comp.kind == "chain"
                    and comp.length == 2
                    and all(b.sides(x) == 2 for x in b.edge_boxes(edge))
                    and len(b.edge_boxes(edge)) == 2
                ):
                    found.add("hard-hearted-handout")
                if comp.kind == "loop" and any(c.kind == "chain" and c.is_long for c in closed):
                    found.add("loop-before-chain")
                lengths = {c.length for c in closed}
                if comp.kind == "chain" and len(lengths) > 1 and comp.length == min(lengths):
                    found.add("shortest-chain")
        if a.safe_edges and not b.claims(edge):
            before = a.long_chains
            b.push(edge)
            after = analyse(b)
            b.pop()
            if after.long_chains != before and after.favoured is player:
                found.add("counting")
        b.push(edge)
    if takes_with_choice and "double-dealing" not in found:
        found.add("take-all")  # declining was there to be tried, and taking was right
    if found & {"sacrifice", "double-dealing", "counting"} and (
        _controller_at_end(board, line) is player
    ):
        found.add("control")
    return [t for t in THEMES if t in found][:MAX_THEMES]


# -- candidates from a game -------------------------------------------------------


def candidates(
    width: int,
    height: int,
    edges: list[Edge],
    *,
    max_undrawn: int,
    nodes: int = NODES,
    table: _solver.Table | None = None,
) -> list[tuple[int, Puzzle]]:
    """Every puzzle in a game: ``(ply, puzzle)`` for the position before edge ``ply``.

    Positions with at most ``max_undrawn`` undrawn edges are tried, from the
    end backwards (late positions leave bounds in the solver's table for the
    earlier ones, as the game analysis does).  ``table``: the solver table
    to use, a fresh one per game keeps a build reproducible.
    """
    if table is None:
        table = _solver.Table()
    boards = []
    board = Board(width, height)
    for edge in edges:
        boards.append(board.copy())
        board.push(edge)
    found: list[tuple[int, Puzzle]] = []
    seen: set[str] = set()
    for ply in range(len(boards) - 1, -1, -1):
        b = boards[ply]
        if len(b.legal_moves) > max_undrawn:
            break
        key = b.key()
        if key in seen:
            continue
        seen.add(key)
        puzzle = find(b, nodes=nodes, table=table)
        if puzzle is not None:
            found.append((ply, puzzle))
    found.reverse()
    # A later puzzle on an earlier one's line is the same puzzle, shorter: keep the first.
    kept: list[tuple[int, Puzzle]] = []
    covered: set[str] = set()
    for ply, puzzle in found:
        if puzzle.board.key() in covered:
            continue
        kept.append((ply, puzzle))
        b = puzzle.board.copy(stack=False)
        for step in puzzle.line:
            b.push(step.edge)
            covered.add(b.key())
    return kept


def selfplay(width: int, height: int, seed: int) -> list[Edge]:
    """A reproducible seed game: the casual level on both sides, ordered by ``seed``.

    The casual level takes what is offered, plays a random safe edge while one
    is left and then opens the smallest component: cheap, and varied enough
    that its late positions hold decisions the solver can prove.  Every fourth
    seed mixes in the beginner level for one side (random mistakes).
    """
    from .players import choose

    board = Board(width, height)
    edges: list[Edge] = []
    weak = Player(seed % 2) if seed % 4 == 3 else None
    while not board.is_over():
        level = "beginner" if board.turn is weak else "casual"
        edge = choose(board, level=level, seed=seed)
        edges.append(edge)
        board.push(edge)
    return edges


def initial_rating(board: Board, line: list[Step]) -> float:
    """A first guess at a puzzle's rating, before anyone has tried it.

    More decisions and more edges to choose from make it harder; a first move
    that the casual computer level would find makes it easier.  Attempts then
    move the rating (Glicko-2) to where players put it.
    """
    from .players import choose

    decisions = sum(1 for s in line if s.player)
    rating = 1200 + 80 * min(decisions - 1, 5) + 8 * len(board.legal_moves)
    if choose(board, level="casual", seed=0) not in line[0].accepted:
        rating += 150
    return float(round(rating))


#: Edges of a refutation at most (the solver's best line after a wrong move).
REFUTATION_EDGES = 6


def refutations(
    board: Board, line: list[Step], *, nodes: int = NODES, table: _solver.Table | None = None
) -> list[dict[str, dict]]:
    """For each of the player's steps, every wrong move: boxes it loses and its refutation.

    ``[{edge: {"lost": boxes, "line": [edges...]}}, ...]``, one dict per player
    step in ``line``.  Computed when the set is built, so the trainer answers
    a wrong click with a lookup and never runs the solver in a request.  The
    refutation is the solver's best line after the wrong move, up to
    :data:`REFUTATION_EDGES` edges or until the player is to move again.
    Raises ``RuntimeError`` if the solver gives up (the build then drops the
    puzzle).
    """
    out: list[dict[str, dict]] = []
    b = board.copy(stack=False)
    for step in line:
        if step.player:
            player = b.turn
            wrong: dict[str, dict] = {}
            for edge in b.legal_moves:
                if edge in step.accepted:
                    continue
                claimed = b.claims(edge)
                b.push(edge)
                reply: list[str] = []
                try:
                    after = _solver.solve(b, max_nodes=nodes, table=table)
                    if after is None:
                        raise RuntimeError(f"the solver gave up after {edge}")
                    played = claimed + after.value if b.turn is player else -after.value
                    c = b.copy(stack=False)
                    while not c.is_over() and len(reply) < REFUTATION_EDGES:
                        if c.turn is player and reply:
                            break
                        s = _solver.solve(c, max_nodes=nodes, table=table)
                        if s is None:
                            break
                        reply.append(str(s.best[0]))
                        c.push(s.best[0])
                finally:
                    b.pop()
                wrong[str(edge)] = {"lost": (step.value - played) // 2, "line": reply}
            out.append(wrong)
        b.push(step.edge)
    return out
