"""The board: who has drawn what, who owns which box, whose turn it is.

Edges are numbered in one fixed order, the same one the position key uses:
horizontal edges row by row from the bottom row of dots up, left to right in
each row, then vertical edges row by row from the bottom, left to right.
Boxes are numbered row by row from the bottom-left, ``index = y * width + x``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache

from .edges import COLUMNS, MAX_BOXES, Edge, dot_name
from .errors import IllegalMoveError, InvalidEdgeError, InvalidSizeError


class Player(enum.IntEnum):
    """The two sides. Blue always moves first."""

    BLUE = 0
    RED = 1

    @property
    def other(self) -> Player:
        return _OTHER[self]

    def __str__(self) -> str:
        return self.name.capitalize()


# Calling Player(1 - p) goes through the enum machinery (about a microsecond);
# a tuple lookup keeps push() fast.
_OTHER = (Player.RED, Player.BLUE)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. ``winner`` is ``None`` for a tie on boxes."""

    winner: Player | None
    blue: int
    red: int

    @property
    def is_tie(self) -> bool:
        return self.winner is None

    @property
    def scores(self) -> tuple[int, int]:
        return self.blue, self.red

    def __str__(self) -> str:
        if self.winner is None:
            return f"Tie, {self.blue}-{self.red}"
        return f"{self.winner} wins, {max(self.scores)}-{min(self.scores)}"


@dataclass(frozen=True)
class _Geometry:
    """Everything about a board size that never changes during a game."""

    width: int
    height: int
    edges: tuple[Edge, ...]
    index: dict[Edge, int]
    edge_boxes: tuple[tuple[int, ...], ...]  # the one or two boxes each edge borders
    box_edges: tuple[tuple[int, int, int, int], ...]  # bottom, top, left, right


@cache
def _geometry(width: int, height: int) -> _Geometry:
    edges: list[Edge] = []
    for y in range(height + 1):
        edges.extend(Edge(x, y, True) for x in range(width))
    for y in range(height):
        edges.extend(Edge(x, y, False) for x in range(width + 1))
    index = {edge: i for i, edge in enumerate(edges)}
    box_edges = []
    for y in range(height):
        for x in range(width):
            box_edges.append(
                (
                    index[Edge(x, y, True)],
                    index[Edge(x, y + 1, True)],
                    index[Edge(x, y, False)],
                    index[Edge(x + 1, y, False)],
                )
            )
    edge_boxes: list[list[int]] = [[] for _ in edges]
    for box, sides in enumerate(box_edges):
        for e in sides:
            edge_boxes[e].append(box)
    return _Geometry(
        width, height, tuple(edges), index, tuple(map(tuple, edge_boxes)), tuple(box_edges)
    )


class Board:
    """A game of Dots and Boxes on ``width`` x ``height`` boxes.

    >>> board = Board(2, 2)
    >>> len(board.legal_moves), board.turn
    (12, <Player.BLUE: 0>)
    >>> board.play("a1-b1")
    ()
    >>> board.turn
    <Player.RED: 1>
    """

    __slots__ = (
        "_count",
        "_drawn",
        "_edge_boxes",
        "_geo",
        "_owner",
        "_scores",
        "_sides",
        "_stack",
        "_turn",
    )

    def __init__(self, width: int = 5, height: int = 5) -> None:
        for name, value in (("width", width), ("height", height)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidSizeError(f"board {name} must be a whole number of boxes")
            if not 1 <= value <= MAX_BOXES:
                raise InvalidSizeError(f"board {name} must be 1 to {MAX_BOXES} boxes, not {value}")
        self._geo = _geometry(width, height)
        self._edge_boxes = self._geo.edge_boxes  # read on every push and pop
        self._drawn = bytearray(len(self._geo.edges))
        self._sides = bytearray(width * height)
        self._owner: list[Player | None] = [None] * (width * height)
        self._turn = Player.BLUE
        self._scores = [0, 0]
        # One entry per pushed edge: (edge index, boxes it claimed, mover).
        self._stack: list[tuple[int, tuple[int, ...], Player]] = []
        self._count = 0

    # -- size -----------------------------------------------------------------

    @property
    def width(self) -> int:
        """Width in boxes."""
        return self._geo.width

    @property
    def height(self) -> int:
        """Height in boxes."""
        return self._geo.height

    @property
    def size_text(self) -> str:
        """The size in boxes and in dots, e.g. ``'5 x 5 boxes (6 x 6 dots)'``."""
        w, h = self.width, self.height
        return f"{w} x {h} boxes ({w + 1} x {h + 1} dots)"

    @property
    def edges(self) -> tuple[Edge, ...]:
        """Every edge of the board in index order."""
        return self._geo.edges

    @property
    def num_boxes(self) -> int:
        return self.width * self.height

    def index(self, edge: Edge) -> int:
        """The index of ``edge`` on this board; :class:`InvalidEdgeError` if off it."""
        try:
            return self._geo.index[edge]
        except (KeyError, TypeError):
            raise InvalidEdgeError(
                f"{edge} is not on this {self.size_text} board "
                f"(dots a1 to {COLUMNS[self.width]}{self.height + 1})"
            ) from None

    def parse_edge(self, text: str) -> Edge:
        """Read an edge in dot-pair notation and check that it lies on this board.

        The error names the text as typed and the dot that is off the board.
        """
        edge = Edge.parse(text)
        if edge not in self._geo.index:
            off = [
                dot_name(x, y)
                for x, y in edge.dots
                if not (0 <= x <= self.width and 0 <= y <= self.height)
            ]
            raise InvalidEdgeError(
                f"{text.strip()!r} is not on this {self.size_text} board: dot {off[-1]} is "
                f"off it (dots a1 to {COLUMNS[self.width]}{self.height + 1})"
            )
        return edge

    def box_edges(self, box: int) -> tuple[Edge, Edge, Edge, Edge]:
        """The bottom, top, left and right sides of a box."""
        edges = self._geo.edges
        b, t, l, r = self._geo.box_edges[box]
        return edges[b], edges[t], edges[l], edges[r]

    def edge_boxes(self, edge: Edge) -> tuple[int, ...]:
        """The one or two boxes that ``edge`` borders."""
        return self._geo.edge_boxes[self.index(edge)]

    # -- state ----------------------------------------------------------------

    @property
    def turn(self) -> Player:
        """The side to move."""
        return self._turn

    @property
    def scores(self) -> tuple[int, int]:
        """Boxes claimed by (Blue, Red)."""
        return self._scores[0], self._scores[1]

    def owner(self, box: int | tuple[int, int]) -> Player | None:
        """Who claimed a box (by index or 0-based ``(x, y)``); ``None`` if unclaimed."""
        if isinstance(box, tuple):
            x, y = box
            if not (0 <= x < self.width and 0 <= y < self.height):
                raise IndexError(f"box {box} is off this {self.size_text} board")
            box = y * self.width + x
        return self._owner[box]

    def sides(self, box: int) -> int:
        """How many of a box's four sides are drawn."""
        return self._sides[box]

    def is_drawn(self, edge: Edge) -> bool:
        return bool(self._drawn[self.index(edge)])

    @property
    def drawn(self) -> list[Edge]:
        """Drawn edges in index order."""
        return [e for e, d in zip(self._geo.edges, self._drawn, strict=True) if d]

    @property
    def legal_moves(self) -> list[Edge]:
        """Undrawn edges in index order (empty when the game is over)."""
        return [e for e, d in zip(self._geo.edges, self._drawn, strict=True) if not d]

    @property
    def move_stack(self) -> list[Edge]:
        """Edges pushed since the board was created, in order."""
        edges = self._geo.edges
        return [edges[i] for i, _, _ in self._stack]

    @property
    def last_claimed(self) -> tuple[int, ...]:
        """The boxes the last pushed edge claimed (empty if none, or no edge yet)."""
        return self._stack[-1][1] if self._stack else ()

    @property
    def unclaimed(self) -> int:
        return self.num_boxes - self._scores[0] - self._scores[1]

    def is_over(self) -> bool:
        """True once every edge is drawn."""
        return self._count == len(self._drawn)

    def outcome(self) -> Outcome | None:
        """The result of a finished game, or ``None`` while edges remain."""
        if not self.is_over():
            return None
        blue, red = self._scores
        winner = None if blue == red else (Player.BLUE if blue > red else Player.RED)
        return Outcome(winner, blue, red)

    # -- moves ----------------------------------------------------------------

    def push(self, edge: Edge) -> tuple[int, ...]:
        """Draw ``edge`` without checking it; return the boxes it claimed.

        For search only: pushing an edge that is already drawn or off the board
        corrupts the position.  Use :meth:`play` for anything a person typed.
        """
        return self.push_index(self._geo.index[edge])

    def push_index(self, i: int) -> tuple[int, ...]:
        """:meth:`push` by edge index, the engine's fast path."""
        self._drawn[i] = 1
        self._count += 1
        sides = self._sides
        claimed: tuple[int, ...] = ()
        for box in self._edge_boxes[i]:
            s = sides[box] + 1
            sides[box] = s
            if s == 4:
                claimed += (box,)
        mover = self._turn
        self._stack.append((i, claimed, mover))
        if claimed:
            owner = self._owner
            for box in claimed:
                owner[box] = mover
            self._scores[mover] += len(claimed)
        else:
            self._turn = _OTHER[mover]
        return claimed

    def pop(self) -> Edge:
        """Take back the last pushed edge exactly; return it.

        Raises :class:`IndexError` when no edge has been pushed.
        """
        if not self._stack:
            raise IndexError("pop from a board with no edge drawn since it was set up")
        i, claimed, mover = self._stack.pop()
        self._drawn[i] = 0
        self._count -= 1
        sides = self._sides
        for box in self._edge_boxes[i]:
            sides[box] -= 1
        if claimed:
            owner = self._owner
            for box in claimed:
                owner[box] = None
            self._scores[mover] -= len(claimed)
        self._turn = mover
        return self._geo.edges[i]

    def play(self, edge: Edge | str) -> tuple[int, ...]:
        """Draw an edge after checking it; return the boxes it claimed.

        Accepts an :class:`Edge` or dot-pair text.  Raises
        :class:`InvalidEdgeError` or :class:`IllegalMoveError` (both
        ``ValueError``) and leaves the board untouched if the edge cannot be
        drawn.
        """
        if isinstance(edge, str):
            edge = self.parse_edge(edge)
        i = self.index(edge)
        if self._drawn[i]:
            raise IllegalMoveError(
                f"{self._geo.edges[i]} is already drawn ({self.size_text}, {self._turn} to move, "
                f"position {self.key()})"
            )
        return self.push_index(i)

    def claims(self, edge: Edge) -> int:
        """How many boxes drawing ``edge`` now would claim (0, 1 or 2)."""
        sides = self._sides
        return sum(1 for box in self.edge_boxes(edge) if sides[box] == 3)

    # -- copies and keys ------------------------------------------------------

    def copy(self, *, stack: bool = True) -> Board:
        """An independent copy (with the move stack unless ``stack=False``)."""
        new = Board.__new__(Board)
        new._geo = self._geo
        new._edge_boxes = self._edge_boxes
        new._drawn = bytearray(self._drawn)
        new._sides = bytearray(self._sides)
        new._owner = list(self._owner)
        new._turn = self._turn
        new._scores = list(self._scores)
        new._stack = list(self._stack) if stack else []
        new._count = self._count
        return new

    @property
    def edge_bits(self) -> int:
        """Drawn edges as an integer, bit ``i`` for edge index ``i``."""
        return sum(1 << i for i, d in enumerate(self._drawn) if d)

    def key(self) -> str:
        """A compact text key that rebuilds the position (not the move history).

        ``WxH.EDGES.RED.TURN``: the drawn-edge bits and the bits of the boxes Red
        owns (every other claimed box is Blue's), both in hexadecimal, then
        ``b`` or ``r`` for the side to move.

        >>> Board(2, 1).key()
        '2x1.0.0.b'
        """
        red = sum(1 << b for b, p in enumerate(self._owner) if p is Player.RED)
        turn = "b" if self._turn is Player.BLUE else "r"
        return f"{self.width}x{self.height}.{self.edge_bits:x}.{red:x}.{turn}"

    @classmethod
    def from_key(cls, key: str) -> Board:
        """Rebuild the position that :meth:`key` describes."""
        try:
            size, edges_hex, red_hex, turn = key.strip().lower().split(".")
            w, h = (int(n) for n in size.split("x"))
            edge_bits, red_bits = int(edges_hex, 16), int(red_hex, 16)
            if turn not in ("b", "r") or edge_bits < 0 or red_bits < 0:
                raise ValueError
        except ValueError:
            raise InvalidEdgeError(f"{key!r} is not a position key like '5x5.0.0.b'") from None
        board = cls(w, h)
        n = len(board._drawn)
        if edge_bits >> n or red_bits >> board.num_boxes:
            raise InvalidEdgeError(f"{key!r} has bits beyond a {board.size_text} board")
        for i in range(n):
            if edge_bits >> i & 1:
                board._drawn[i] = 1
                board._count += 1
                for box in board._geo.edge_boxes[i]:
                    board._sides[box] += 1
        for box in range(board.num_boxes):
            if board._sides[box] == 4:
                p = Player.RED if red_bits >> box & 1 else Player.BLUE
                board._owner[box] = p
                board._scores[p] += 1
            elif red_bits >> box & 1:
                raise InvalidEdgeError(f"{key!r} gives Red a box that is not closed")
        board._turn = Player.BLUE if turn == "b" else Player.RED
        return board

    # -- display --------------------------------------------------------------

    def __repr__(self) -> str:
        return f"<Board {self.width}x{self.height} {self.key()!r}>"

    def __str__(self) -> str:
        """A plain-text picture: ``+`` dots, ``---`` and ``|`` edges, ``B``/``R`` owners."""
        w, h = self.width, self.height
        idx, drawn = self._geo.index, self._drawn
        lines = []
        for y in range(h, -1, -1):
            row = "+"
            for x in range(w):
                row += ("---" if drawn[idx[Edge(x, y, True)]] else "   ") + "+"
            lines.append(row)
            if y:
                row = ""
                for x in range(w + 1):
                    row += "|" if drawn[idx[Edge(x, y - 1, False)]] else " "
                    if x < w:
                        owner = self._owner[(y - 1) * w + x]
                        row += f" {'BR'[owner] if owner is not None else ' '} "
                lines.append(row)
        return "\n".join(lines)
