"""What a position is made of: chains, loops, safe edges, and who has control.

The vocabulary is Berlekamp's (*The Dots-and-Boxes Game*, 2000).  Think of every
unclaimed box as a coin and every undrawn edge as a string tied to the one or
two boxes it borders (a border edge is tied to the *ground*).  A box with three
sides drawn is **capturable**.  Boxes with exactly two sides drawn have two
strings left, so they line up into **chains** (paths) and **loops** (cycles).
A box with zero or one side drawn has three or four strings: a **junction**
where several chains meet.

Each end of a chain is one of:

* ``"border"``: the end box's last string is a border edge (tied to the ground);
* ``"junction"``: the string leads into a junction box;
* ``"opened"``: the end box already has three sides, so the chain has been
  opened and the side to move can start taking it.

A chain of three or more boxes is **long**; every loop is long (a loop on a grid
has at least four boxes).  Once no **safe edge** is left (one that gives no box
a third side), every move hands boxes over, and whoever must open the first long
component usually loses: the other side, the **controller**, takes all but two
boxes of each chain (all but four of each loop), giving those away with a
*double-dealing* move so that the opener must open the next one too.

**The long-chain rule.**  Count the moves that claim no box: each passes the
turn.  From any position, that count is ``undrawn edges - unclaimed boxes + D``,
where ``D`` is the number of double-crosses still to come (moves claiming two
boxes at once).  The side to move makes the last move of the game (and so takes
the last chain) exactly when that count is even.  When the controller keeps
control to the end, every long chain but the last is double-crossed once and
loops contribute an even number, so ``D`` has the parity of ``long chains - 1``.
Hence the side to move wants ``undrawn edges - unclaimed boxes + long chains``
to be **odd**.  On an empty board of ``m x n`` boxes with ``d = (m+1)(n+1)``
dots, ``undrawn edges - unclaimed boxes = d - 1``, which gives Berlekamp's
classic form: *the first player wants dots + long chains to be even, the second
player wants it odd* (5 x 5 boxes, 36 dots: the first player wants an even
number of long chains; 3 x 3 boxes, 16 dots: also even; 4 x 4 boxes, 25 dots:
odd).

>>> from dotsboxes.rules import Board
>>> board = Board(3, 1)              # the bottom and top rows drawn: a chain of 3
>>> for edge in ("a1-b1", "a2-b2", "b1-c1", "b2-c2", "c1-d1", "c2-d2"):
...     _ = board.play(edge)
>>> for part in describe(analyse(board)).split("; "):
...     print(part)
Blue to move, 0 safe edges
components: chain 3
long chains 1, loops 0, parity favours Red
Red in control (controlled value 3)
exact value -3 for Blue
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal, NamedTuple

from dotsboxes.rules import Board, Edge, Player

GROUND = -1

End = Literal["border", "junction", "opened"]


@dataclass(frozen=True)
class Grid:
    """The fixed geometry of one board size, by edge and box index.

    Indices are the rules core's: edges in :attr:`Board.edges` order, boxes row by
    row from the bottom left.  ``around[box]`` lists ``(edge, neighbour)`` pairs for
    the four sides, the neighbour being :data:`GROUND` across a border edge.
    """

    width: int
    height: int
    edges: tuple[Edge, ...]
    edge_boxes: tuple[tuple[int, ...], ...]
    around: tuple[tuple[tuple[int, int], ...], ...]

    @property
    def num_boxes(self) -> int:
        return self.width * self.height


@cache
def grid(width: int, height: int) -> Grid:
    """The :class:`Grid` of a ``width`` x ``height`` box board (cached)."""
    board = Board(width, height)
    edge_boxes = tuple(board.edge_boxes(e) for e in board.edges)
    around: list[list[tuple[int, int]]] = [[] for _ in range(board.num_boxes)]
    for i, boxes in enumerate(edge_boxes):
        for box in boxes:
            other = [b for b in boxes if b != box]
            around[box].append((i, other[0] if other else GROUND))
    return Grid(width, height, board.edges, edge_boxes, tuple(map(tuple, around)))


def arrays(board: Board) -> tuple[Grid, bytearray, bytearray]:
    """The board's grid plus its drawn flags (by edge) and side counts (by box)."""
    g = grid(board.width, board.height)
    bits = board.edge_bits
    drawn = bytearray((bits >> i) & 1 for i in range(len(g.edges)))
    sides = bytearray(board.sides(b) for b in range(g.num_boxes))
    return g, drawn, sides


# -- components ---------------------------------------------------------------


class RawComponent(NamedTuple):
    """A component by indices, as the search uses it (see :class:`Component`)."""

    kind: str  # "chain" or "loop"
    boxes: tuple[int, ...]  # in path order; a chain's first box is at ends[0]
    ends: tuple[str, ...]  # two ends for a chain, none for a loop; opened ends first
    end_edges: tuple[int, ...]  # the string leaving each end (-1 for an opened end)
    inner: tuple[int, ...]  # edges between consecutive boxes (and the closing one of a loop)

    @property
    def length(self) -> int:
        return len(self.boxes)

    @property
    def opened(self) -> int:
        """How many ends are opened (0, 1 or 2)."""
        return self.ends.count("opened")


def _walk(g: Grid, drawn: bytearray, sides: bytearray, seen: bytearray, start: int, e: int, o: int):
    """Follow a string from ``start``: the boxes passed, the edges between, how it ends."""
    boxes: list[int] = []
    inner: list[int] = []
    around = g.around
    while True:
        if o == GROUND:
            return boxes, inner, "border", e
        so = sides[o]
        if so <= 1:
            return boxes, inner, "junction", e
        inner.append(e)
        if o == start:
            return boxes, inner, "loop", -1
        seen[o] = 1
        boxes.append(o)
        if so == 3:
            return boxes, inner, "opened", -1
        for e2, o2 in around[o]:
            if e2 != e and not drawn[e2]:
                e, o = e2, o2
                break


def raw_components(g: Grid, drawn: bytearray, sides: bytearray) -> list[RawComponent]:
    """Every chain and loop of the position, by indices."""
    seen = bytearray(len(sides))
    result = []
    for start, s0 in enumerate(sides):
        if s0 < 2 or s0 == 4 or seen[start]:
            continue
        seen[start] = 1
        strings = [(e, o) for e, o in g.around[start] if not drawn[e]]
        boxes, inner, end, end_edge = _walk(g, drawn, sides, seen, start, *strings[0])
        if end == "loop":
            result.append(RawComponent("loop", (start, *boxes), (), (), tuple(inner)))
            continue
        if len(strings) == 1:  # the start box has three sides: an opened end
            order = (start, *boxes)
            ends, end_edges, links = ("opened", end), (-1, end_edge), inner
        else:
            back, back_inner, back_end, back_edge = _walk(g, drawn, sides, seen, start, *strings[1])
            order = (*reversed(back), start, *boxes)
            links = [*reversed(back_inner), *inner]
            ends, end_edges = (back_end, end), (back_edge, end_edge)
        if ends[1] == "opened" and ends[0] != "opened":
            order, links = order[::-1], links[::-1]
            ends, end_edges = ends[::-1], end_edges[::-1]
        result.append(RawComponent("chain", tuple(order), ends, end_edges, tuple(links)))
    return result


def safe_edge_indices(g: Grid, drawn: bytearray, sides: bytearray) -> list[int]:
    """Undrawn edges that give no box a third side (and claim none)."""
    return [
        i
        for i, boxes in enumerate(g.edge_boxes)
        if not drawn[i] and all(sides[b] <= 1 for b in boxes)
    ]


# -- the simple loony endgame -------------------------------------------------


@cache
def closed_value(chains: tuple[int, ...], loops: tuple[int, ...]) -> int:
    """Margin of the side to move, who must open one of these independent components.

    The opener hands a chain out from its end (a two-chain in the middle, so it
    cannot be declined) or a loop anywhere; the receiver takes everything and
    moves next, or (chains of three or more, loops) takes all but two (four) and
    makes the opener move again.  Each side picks its best option.
    """
    if not chains and not loops:
        return 0
    best = None
    for n in sorted(set(chains)):
        rest = list(chains)
        rest.remove(n)
        f = closed_value(tuple(rest), loops)
        value = -(n + f) if n <= 2 else min(-(n + f), 4 - n + f)
        best = value if best is None else max(best, value)
    for n in sorted(set(loops)):
        rest = list(loops)
        rest.remove(n)
        f = closed_value(chains, tuple(rest))
        value = min(-(n + f), 8 - n + f)
        best = value if best is None else max(best, value)
    assert best is not None
    return best


def simple_endgame_value(components: list[RawComponent]) -> int:
    """Exact margin for the side to move in a simple loony endgame.

    Preconditions (see :func:`is_simple`): no safe edge, no junction, so every
    component stands alone.  Opened components are captured first; the mover
    may decline the last one (all but two of a chain, all but four of an opened
    loop) to keep control.
    """
    closed_chains = tuple(
        sorted(c.length for c in components if c.kind == "chain" and not c.opened)
    )
    loops = tuple(sorted(c.length for c in components if c.kind == "loop"))
    rest = closed_value(closed_chains, loops)
    opened = [c for c in components if c.opened]
    if not opened:
        return rest
    total = sum(c.length for c in opened)
    best = total + rest
    for c in opened:
        gift = _decline_gift(c)
        if gift:
            best = max(best, total - 2 * gift - rest)
    return best


def _decline_gift(c: RawComponent) -> int:
    """Boxes a capturer gives away to decline an opened component (0: cannot)."""
    if c.opened == 1 and c.length >= 2:
        return 2
    if c.opened == 2 and c.length >= 4:
        return 4
    return 0


def is_simple(components: list[RawComponent], safe_count: int, sides: bytearray) -> bool:
    """No safe edge and no junction: every component is independent."""
    if safe_count:
        return False
    return all(s >= 2 for s in sides)


# -- public analysis ----------------------------------------------------------


@dataclass(frozen=True)
class Component:
    """A chain or a loop.

    ``boxes`` are box indices in path order (``index = y * width + x``), a chain's
    first box being at ``ends[0]``; ``ends`` holds two :data:`End` values for a
    chain, none for a loop.  ``edges`` are the undrawn edges that belong to it.
    """

    kind: Literal["chain", "loop"]
    boxes: tuple[int, ...]
    ends: tuple[End, ...]
    edges: tuple[Edge, ...]

    @property
    def length(self) -> int:
        return len(self.boxes)

    @property
    def is_long(self) -> bool:
        """Chains of three or more boxes and every loop."""
        return self.kind == "loop" or self.length >= 3

    @property
    def opened(self) -> bool:
        """True if it can be captured now (an end box has three sides)."""
        return "opened" in self.ends

    def __str__(self) -> str:
        if self.kind == "loop":
            return f"loop {self.length}"
        tag = " opened" if self.opened else ""
        return f"chain {self.length}{tag}"


@dataclass(frozen=True)
class Analysis:
    """Everything :func:`analyse` finds.  Values are for the side to move, ``turn``.

    * ``safe_edges``: edges that give no box a third side.
    * ``capturable``: boxes with three sides drawn.
    * ``loony``: the side to move was just offered a loony choice: an opened
      chain of two or more, or an opened loop of four or more, that it can take
      whole or decline (all but two / all but four) to keep control.
    * ``long_chains``, ``loops``, ``short_chains``: counts of components that are
      not opened at both ends (long chain: three or more boxes).
    * ``favoured``: the side the long-chain rule favours if the number of long
      chains stays as it is now (see the module docstring).
    * ``controller``: once no safe edge and no junction is left, the side that
      will receive the first long component when the short chains have been
      handed out (``None`` before that, or with no long component left).
    * ``controlled_value``: Berlekamp's controlled value of the long components:
      their boxes, minus 4 per long chain and 8 per loop, plus 4 back for the
      last chain (8 if only loops): what the controller nets by keeping control
      to the end.  ``None`` with no long component.
    * ``endgame_value``: in a simple endgame (no safe edge, no junction), the
      exact final margin of the side to move over the unclaimed boxes; else ``None``.
    """

    turn: Player
    components: tuple[Component, ...]
    junctions: tuple[int, ...]
    safe_edges: tuple[Edge, ...]
    capturable: tuple[int, ...]
    loony: bool
    long_chains: int
    loops: int
    short_chains: int
    favoured: Player
    controller: Player | None
    controlled_value: int | None
    endgame_value: int | None

    @property
    def phase(self) -> str:
        """``"safe"`` while safe edges remain, ``"endgame"`` after, ``"over"`` at the end."""
        if not self.components and not self.junctions:
            return "over"
        return "safe" if self.safe_edges else "endgame"


def analyse(board: Board) -> Analysis:
    """Analyse ``board`` for the side to move (pure, no search).

    >>> from dotsboxes.rules import Board
    >>> a = analyse(Board(2, 2))
    >>> len(a.safe_edges), a.components, len(a.junctions), a.favoured
    (12, (), 4, <Player.RED: 1>)
    """
    g, drawn, sides = arrays(board)
    raw = raw_components(g, drawn, sides)
    safe = safe_edge_indices(g, drawn, sides)
    turn = board.turn
    components = tuple(
        Component(
            c.kind,  # type: ignore[arg-type]
            c.boxes,
            c.ends,  # type: ignore[arg-type]
            tuple(g.edges[e] for e in sorted({*c.inner, *(x for x in c.end_edges if x >= 0)})),
        )
        for c in raw
    )
    closed = [c for c in raw if c.opened < 2]
    long_chains = sum(1 for c in closed if c.kind == "chain" and c.length >= 3)
    loops = sum(1 for c in raw if c.kind == "loop" or (c.opened == 2 and c.length >= 4))
    short_chains = sum(1 for c in closed if c.kind == "chain" and c.length <= 2)
    pending_doublecrosses = sum(1 for c in raw if c.opened == 2 and c.length in (2, 3))
    undrawn = len(drawn) - sum(drawn)
    count = undrawn - board.unclaimed + long_chains + pending_doublecrosses
    favoured = turn if count % 2 == 1 else turn.other
    simple = is_simple(raw, len(safe), sides)
    loony = any(_decline_gift(c) for c in raw)
    controller = None
    if simple and (long_chains or loops):
        if loony:
            controller = turn
        else:
            unopened_short = sum(
                1 for c in raw if c.kind == "chain" and not c.opened and c.length <= 2
            )
            controller = turn.other if unopened_short % 2 == 0 else turn
    return Analysis(
        turn=turn,
        components=components,
        junctions=tuple(b for b in range(g.num_boxes) if sides[b] <= 1),
        safe_edges=tuple(g.edges[i] for i in safe),
        capturable=tuple(b for b in range(g.num_boxes) if sides[b] == 3),
        loony=loony,
        long_chains=long_chains,
        loops=loops,
        short_chains=short_chains,
        favoured=favoured,
        controller=controller,
        controlled_value=_controlled_value(raw),
        endgame_value=simple_endgame_value(raw) if simple else None,
    )


def _controlled_value(raw: list[RawComponent]) -> int | None:
    chains = [c.length for c in raw if c.kind == "chain" and c.length >= 3 and c.opened < 2]
    loops = [c.length for c in raw if c.kind == "loop" or (c.opened == 2 and c.length >= 4)]
    if not chains and not loops:
        return None
    bonus = 4 if chains else 8
    return sum(chains) + sum(loops) - 4 * len(chains) - 8 * len(loops) + bonus


def describe(analysis: Analysis) -> str:
    """One line for people and for the protocol's ``analyse`` command.

    >>> from dotsboxes.rules import Board
    >>> describe(analyse(Board(2, 2)))
    'Blue to move, 12 safe edges; no components yet; 4 junctions; no long chain'
    """
    a = analysis
    if a.phase == "over":
        return "game over"
    parts = [f"{a.turn} to move, {len(a.safe_edges)} safe edge{'s' * (len(a.safe_edges) != 1)}"]
    if a.components:
        parts.append("components: " + ", ".join(map(str, a.components)))
    else:
        parts.append("no components yet")
    if a.junctions:
        parts.append(f"{len(a.junctions)} junction{'s' * (len(a.junctions) != 1)}")
    if a.capturable:
        parts.append(f"{len(a.capturable)} capturable" + (" (loony)" if a.loony else ""))
    if a.long_chains or a.loops:
        parts.append(f"long chains {a.long_chains}, loops {a.loops}, parity favours {a.favoured}")
    else:
        parts.append("no long chain")
    if a.controller is not None:
        parts.append(f"{a.controller} in control (controlled value {a.controlled_value})")
    if a.endgame_value is not None:
        parts.append(f"exact value {a.endgame_value:+d} for {a.turn}")
    return "; ".join(parts)
