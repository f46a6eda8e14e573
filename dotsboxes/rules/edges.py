"""Edges and dot-pair notation.

Dots are named like squares on a chessboard: columns ``a, b, c, ...`` from left
to right and rows ``1, 2, 3, ...`` from bottom to top.  An edge is written as its
two dots, the lower or left dot first: ``a1-b1`` is the bottom side of the
bottom-left box, ``a1-a2`` its left side.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from .errors import InvalidEdgeError

#: The largest board is 9 x 9 boxes, so 10 x 10 dots: columns a..j, rows 1..10.
MAX_BOXES = 9
COLUMNS = "abcdefghij"

# A dot is a column letter then a row number without leading zeros ("a1", "j10");
# spaces may surround the edge and its dash, never split a dot's name.  Digits are
# [0-9], not \d: \d also takes other scripts' digits, and int() reads "a1\u0660"
# as a10, so text that is not notation would have named a real edge.
_EDGE_RE = re.compile(r"^\s*([a-z])(0|[1-9][0-9]?)\s*-\s*([a-z])(0|[1-9][0-9]?)\s*$")


def dot_name(x: int, y: int) -> str:
    """Name of the dot in column ``x`` and row ``y`` (both 0-based).

    >>> dot_name(2, 0)
    'c1'
    """
    return f"{COLUMNS[x]}{y + 1}"


class Edge(NamedTuple):
    """One edge of the lattice, identified by its lower or left dot.

    ``x`` and ``y`` are the 0-based column and row of that dot.  A horizontal
    edge joins it to the dot on its right, a vertical edge to the dot above.
    Edges are values: equal edges compare and hash equal, whatever board they
    are used on.

    >>> Edge.parse("B1-a1")
    Edge.parse('a1-b1')
    >>> str(Edge(0, 0, horizontal=False))
    'a1-a2'
    """

    x: int
    y: int
    horizontal: bool

    @classmethod
    def parse(cls, text: str) -> Edge:
        """Read an edge in dot-pair notation, in either dot order.

        Upper case and surrounding spaces are accepted.  Anything that is not
        two neighbouring dots of a 9 x 9 box board raises
        :class:`InvalidEdgeError` naming the input.
        """
        if not isinstance(text, str):
            raise InvalidEdgeError(f"an edge is written as two dots like 'a1-b1', not {text!r}")
        return _parse_edge(text)  # (a stored game is read back from its edges' names)

    @classmethod
    def _parse(cls, text: str) -> Edge:
        match = _EDGE_RE.match(text.lower())
        if not match:
            raise InvalidEdgeError(
                f"{text.strip()!r} is not an edge: write two neighbouring dots like 'a1-b1'"
            )
        c1, r1, c2, r2 = match.groups()
        x1, y1 = ord(c1) - ord("a"), int(r1) - 1
        x2, y2 = ord(c2) - ord("a"), int(r2) - 1
        for x, y, name in ((x1, y1, c1 + r1), (x2, y2, c2 + r2)):
            if not (0 <= x <= MAX_BOXES and 0 <= y <= MAX_BOXES):
                raise InvalidEdgeError(
                    f"{text.strip()!r} is not an edge: dot {name} is off every board "
                    f"(columns a-j, rows 1-10)"
                )
        (x1, y1), (x2, y2) = sorted(((x1, y1), (x2, y2)))
        dx, dy = x2 - x1, y2 - y1
        if (dx, dy) == (1, 0):
            return cls(x1, y1, True)
        if (dx, dy) == (0, 1):
            return cls(x1, y1, False)
        if dx == 0 and dy == 0:
            reason = "both ends are the same dot"
        elif dx and dy:
            reason = "the dots are diagonal to each other"
        else:
            reason = "the dots are not neighbours (an edge spans one gap)"
        raise InvalidEdgeError(f"{text.strip()!r} is not an edge: {reason}")

    @property
    def dots(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The two dots, lower or left first, as 0-based (column, row) pairs."""
        if self.horizontal:
            return (self.x, self.y), (self.x + 1, self.y)
        return (self.x, self.y), (self.x, self.y + 1)

    @property
    def has_name(self) -> bool:
        """True when both dots lie on the largest (9 x 9 boxes) board, so have names."""
        return all(0 <= x <= MAX_BOXES and 0 <= y <= MAX_BOXES for x, y in self.dots)

    def __str__(self) -> str:
        return _edge_name(self)

    def __repr__(self) -> str:
        if not self.has_name:
            return str(self)
        return f"Edge.parse({str(self)!r})"


@lru_cache(maxsize=512)
def _edge_name(edge: Edge) -> str:
    # A page names every edge of its board several times (its button, its label, the
    # log), so each name is built once per process: there are at most 220 named edges.
    if not edge.has_name:
        return f"Edge({edge.x}, {edge.y}, horizontal={edge.horizontal})"
    (x1, y1), (x2, y2) = edge.dots
    return f"{dot_name(x1, y1)}-{dot_name(x2, y2)}"


@lru_cache(maxsize=1024)
def _parse_edge(text: str) -> Edge:
    # Errors are not cached (lru_cache keeps only returned values), so the cache holds
    # at most the few hundred spellings of real edges.
    return Edge._parse(text)
