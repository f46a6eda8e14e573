"""Plain words for what the engine's analysis sees in a position."""

from __future__ import annotations

from dotsboxes.engine.analysis import Component, analyse
from dotsboxes.rules import Board


def _piece(component: Component) -> str:
    n = component.length
    if component.kind == "loop":
        name = f"loop of {n}"
    elif n == 1:
        name = "single box"
    elif n == 2:
        name = "pair"
    else:
        name = f"chain of {n}"
    opened = component.ends.count("opened")
    if opened == 2:
        # Opened at both ends it plays like a loop: keeping control costs four boxes.
        return f"{name} opened at both ends"
    return f"{name} (opened)" if opened else name


def _join(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def position_facts(board: Board) -> list[tuple[str, str]]:
    """Label/text pairs: the pieces, the long-chain count and the safe edges left.

    >>> from dotsboxes.rules import Board
    >>> board = Board(3, 1)
    >>> for edge in ("a1-b1", "a2-b2", "b1-c1", "b2-c2", "c1-d1", "c2-d2"):
    ...     _ = board.play(edge)
    >>> position_facts(board)
    [('Pieces', 'a chain of 3'), ('Long chains', '1 (loops: 0)'), ('Safe edges left', '0')]
    """
    a = analyse(board)
    pieces = sorted(a.components, key=lambda c: (c.kind == "loop", c.length))
    words = [f"a {_piece(c)}" for c in pieces]
    if a.junctions:
        n = len(a.junctions)
        words.append(f"{n} box{'es' * (n != 1)} still open on three or four sides")
    return [
        ("Pieces", _join(words) or "none"),
        ("Long chains", f"{a.long_chains} (loops: {a.loops})"),
        ("Safe edges left", str(len(a.safe_edges))),
    ]
