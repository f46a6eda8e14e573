"""Positions for the guide, written as pictures.

Every diagram, study and exercise is typed as the same plain-text picture that
``str(Board)`` prints (``+`` dots, ``---`` and ``|`` edges, ``B``/``R`` in a
claimed box), then turned into a real :class:`~dotsboxes.rules.Board` here.
The picture is easy to read and review in the source, and the board built
from it goes through the rules core, so a diagram cannot show something the
rules would not allow (a claimed box with a side missing, say).

>>> board = from_picture('''
... +---+   +
... | B |
... +---+---+
... ''', turn="red")
>>> board.scores, board.turn.name, len(board.legal_moves)
((1, 0), 'RED', 2)
"""

from __future__ import annotations

from textwrap import dedent

from dotsboxes.rules import Board, Edge, Player


class PictureError(ValueError):
    """A picture that does not describe a board position."""


def _clean(picture: str) -> list[str]:
    lines = dedent(picture.strip("\n")).split("\n")
    return [line.rstrip() for line in lines]


def from_picture(picture: str, *, turn: str | Player = "blue") -> Board:
    """Build the position a picture shows, with ``turn`` ("blue"/"red") to move.

    Claimed boxes must carry their owner's letter and every box with a letter
    must be closed: a picture that breaks the rules raises :class:`PictureError`.
    """
    lines = _clean(picture)
    if len(lines) < 3 or len(lines) % 2 == 0:
        raise PictureError("a picture has a dot row, then a box row and a dot row per box row")
    height = (len(lines) - 1) // 2
    width = (len(lines[0]) - 1) // 4
    if width < 1 or len(lines[0]) != 4 * width + 1:
        raise PictureError(f"the top dot row {lines[0]!r} should read '+---+   +...'")
    lines = [line.ljust(4 * width + 1) for line in lines]
    board = Board(width, height)
    edge_bits = red_bits = 0
    letters: dict[int, str] = {}
    for row, line in enumerate(lines):
        y = height - row // 2  # dot row y, counted from the bottom
        if len(line) != 4 * width + 1:
            raise PictureError(f"line {row + 1} {line!r} is wider than the board")
        if row % 2 == 0:
            for x in range(width + 1):
                if line[4 * x] != "+":
                    raise PictureError(f"line {row + 1} should have a dot at column {4 * x + 1}")
            for x in range(width):
                mark = line[4 * x + 1 : 4 * x + 4]
                if mark == "---":
                    edge_bits |= 1 << board.index(Edge(x, y, True))
                elif mark.strip():
                    raise PictureError(f"line {row + 1}: {mark!r} is neither '---' nor blank")
        else:
            for x in range(width + 1):
                mark = line[4 * x]
                if mark == "|":
                    edge_bits |= 1 << board.index(Edge(x, y - 1, False))
                elif mark != " ":
                    raise PictureError(f"line {row + 1}: {mark!r} is neither '|' nor blank")
            for x in range(width):
                letter = line[4 * x + 1 : 4 * x + 4].strip()
                if letter:
                    letters[(y - 1) * width + x] = letter
    for box, letter in letters.items():
        if letter not in ("B", "R"):
            raise PictureError(f"box {box} holds {letter!r}: only B or R mark a claimed box")
        if letter == "R":
            red_bits |= 1 << box
    name = turn.name if isinstance(turn, Player) else str(turn)
    if name.lower() not in ("blue", "red"):
        raise PictureError(f"the side to move is 'blue' or 'red', not {turn!r}")
    side = name.lower()[0]
    built = Board.from_key(f"{width}x{height}.{edge_bits:x}.{red_bits:x}.{side}")
    for box in range(built.num_boxes):
        closed = built.sides(box) == 4
        if closed != (box in letters):
            state = "closed but has no owner letter" if closed else "has a letter but is open"
            raise PictureError(
                f"box {box} (column {box % width + 1}, row {box // width + 1}) is {state}"
            )
    return built


def to_picture(board: Board) -> str:
    """The picture of a board (the inverse of :func:`from_picture`)."""
    return "\n".join(line.rstrip() for line in str(board).split("\n"))
