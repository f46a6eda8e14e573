"""Game records: a header with the size, then numbered turns.

A turn is everything one player draws before play passes: every edge in it but
the last claims a box (the last may too, when it ends the game or the record
stops mid-turn).  Edges of one turn are separated by commas::

    Dots and Boxes
    Size: 3 x 3 boxes (4 x 4 dots)
    Blue: Ada
    Red: Computer (master)

    1. c3-d3  2. b4-b5, d3-e3  3. a1-a2

``format_record(parse_record(text)) == text`` for every record this module
writes, and ``parse_record(format_record(r)) == r`` for every record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .board import Board
from .edges import Edge
from .errors import IllegalMoveError, InvalidRecordError, RulesError

TITLE = "Dots and Boxes"
# Numbers are [0-9], not \d, which also takes other scripts' digits (int() reads them).
_SIZE_RE = re.compile(
    r"^([0-9]+)\s*x\s*([0-9]+)\s+boxes(?:\s*\(\s*([0-9]+)\s*x\s*([0-9]+)\s+dots\s*\))?$", re.I
)
_TURN_NO_RE = re.compile(r"^([0-9]+)\.$")
LINE_WIDTH = 78


@dataclass
class GameRecord:
    """A game as a size, optional headers and a list of turns (lists of edges)."""

    width: int = 5
    height: int = 5
    turns: list[list[Edge]] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def edges(self) -> list[Edge]:
        """Every edge in the order drawn."""
        return [e for turn in self.turns for e in turn]

    def board(self) -> Board:
        """Replay the record on a fresh board (the record is assumed valid)."""
        board = Board(self.width, self.height)
        for edge in self.edges:
            board.play(edge)
        return board

    @classmethod
    def from_board(cls, board: Board, headers: dict[str, str] | None = None) -> GameRecord:
        """The record of every edge pushed on ``board``, grouped into turns."""
        return cls(board.width, board.height, group_turns(board), dict(headers or {}))


def group_turns(board: Board) -> list[list[Edge]]:
    """Group the board's move stack into turns: a turn ends where the mover changes."""
    replay = Board(board.width, board.height)
    turns: list[list[Edge]] = []
    mover = None
    for edge in board.move_stack:
        if replay.turn is not mover:
            turns.append([])
            mover = replay.turn
        turns[-1].append(edge)
        replay.push(edge)
    return turns


def format_record(record: GameRecord) -> str:
    """Write a record as text (see the module docstring for the format)."""
    w, h = record.width, record.height
    lines = [TITLE, f"Size: {w} x {h} boxes ({w + 1} x {h + 1} dots)"]
    for key, value in record.headers.items():
        # A header that could not be read back would break the round trip.
        if (
            not key.strip()
            or key != key.strip()
            or value != value.strip()
            or ":" in key
            or key.lower() == "size"
            or key[0].isdigit()
            or any(c in key + value for c in "\r\n")
        ):
            raise InvalidRecordError(f"header {key!r}: {value!r} cannot be written in a record")
        lines.append(f"{key}: {value}")
    lines.append("")
    row = ""
    for n, turn in enumerate(record.turns, start=1):
        # Lines break between turns, or after a comma inside a long turn.
        units = [f"{e}," for e in turn[:-1]] + [str(e) for e in turn[-1:]]
        units[0] = f"{n}. {units[0]}" if units else f"{n}."
        for k, unit in enumerate(units):
            sep = "  " if k == 0 else " "
            if row and len(row) + len(sep) + len(unit) > LINE_WIDTH:
                lines.append(row)
                row = unit
            else:
                row = f"{row}{sep}{unit}" if row else unit
    if row:
        lines.append(row)
    return "\n".join(lines) + "\n"


def parse_record(text: str) -> GameRecord:
    """Read and replay a record; raise :class:`InvalidRecordError` naming the turn and edge.

    The header needs a ``Size:`` line; a title line and other ``Key: value``
    lines are optional and kept.  Every turn is checked against the rules: the
    numbering, that each edge can be drawn, and that play passes exactly where
    a turn ends.
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidRecordError("the record is empty", code="empty")
    lines = text.replace("\r\n", "\n").split("\n")
    headers: dict[str, str] = {}
    size: tuple[int, int] | None = None
    body_start = len(lines)
    for n, raw in enumerate(lines):
        line = raw.strip()
        if not line or line.lower() == TITLE.lower():
            continue
        if re.match(r"^[0-9]+\.", line):
            body_start = n
            break
        key, sep, value = line.partition(":")
        if not sep or not key.strip():
            raise InvalidRecordError(
                f"header line {n + 1} is not 'Key: value': {line!r}",
                code="header",
                params={"line": n + 1, "text": line},
            )
        key, value = key.strip(), value.strip()
        if key.lower() == "size":
            size = _parse_size(value)
        else:
            headers[key] = value
    if size is None:
        raise InvalidRecordError("the record has no 'Size: W x H boxes' line", code="no_size")
    width, height = size
    try:
        board = Board(width, height)
    except RulesError as exc:
        raise InvalidRecordError(
            f"bad size: {exc}", code="bad_size", params={"w": width, "h": height}
        ) from None
    turns = parse_turns(" ".join(lines[body_start:]), board)
    return GameRecord(width, height, turns, headers)


def _parse_size(value: str) -> tuple[int, int]:
    match = _SIZE_RE.match(value.strip())
    if not match:
        raise InvalidRecordError(
            f"size {value!r} should read like '5 x 5 boxes (6 x 6 dots)'",
            code="size_format",
            params={"value": value},
        )
    w, h, dw, dh = match.groups()
    w, h = int(w), int(h)
    if dw is not None and (int(dw), int(dh)) != (w + 1, h + 1):
        raise InvalidRecordError(
            f"size {value!r} contradicts itself: {w} x {h} boxes have {w + 1} x {h + 1} dots",
            code="size_contradiction",
            params={"value": value, "w": w, "h": h, "dw": w + 1, "dh": h + 1},
        )
    return w, h


def parse_turns(body: str, board: Board) -> list[list[Edge]]:
    """The turns of a record's body (``1. a1-b1 2. ...``), each checked by playing
    it on ``board`` (which they change): the empty board for :func:`parse_record`,
    a set position for a game that started from one."""
    # Split into "N." markers and edge lists; commas separate edges of one turn.
    tokens = re.findall(r"[0-9]+\.(?![0-9])|[^\s,-]+\s*-\s*[^\s,-]+|[^\s,]+|,", body)
    turns: list[list[Edge]] = []
    expected = 1
    i = 0
    while i < len(tokens):
        marker = _TURN_NO_RE.match(tokens[i])
        if not marker:
            raise InvalidRecordError(
                f"expected turn number {expected}. but found {tokens[i]!r}",
                turn=expected,
                code="turn_expected",
                params={"turn": expected, "found": tokens[i]},
            )
        if int(marker.group(1)) != expected:
            raise InvalidRecordError(
                f"turn {expected} is numbered {marker.group(1)}",
                turn=expected,
                code="turn_numbered",
                params={"turn": expected, "number": marker.group(1)},
            )
        i += 1
        turn: list[Edge] = []
        while True:
            if i >= len(tokens) or _TURN_NO_RE.match(tokens[i]):
                raise InvalidRecordError(
                    f"turn {expected} has no edge",
                    turn=expected,
                    code="turn_empty",
                    params={"turn": expected},
                )
            turn.append(_play_in_turn(board, tokens[i], expected, turn))
            i += 1
            if i < len(tokens) and tokens[i] == ",":
                i += 1
                continue
            break
        turns.append(turn)
        if i < len(tokens) and board.move_stack and _claimed_last(board):
            raise InvalidRecordError(
                f"turn {expected} ends after {turn[-1]} claimed a box, but the same player "
                f"moves again: list the next edge in turn {expected}",
                turn=expected,
                edge=str(turn[-1]),
                code="turn_goes_on",
                params={"turn": expected, "edge": str(turn[-1])},
            )
        expected += 1
    return turns


def _play_in_turn(board: Board, token: str, turn_no: int, turn: list[Edge]) -> Edge:
    if turn and not _claimed_last(board):
        raise InvalidRecordError(
            f"turn {turn_no}: {turn[-1]} claimed no box, so play passed before {token}",
            turn=turn_no,
            edge=token,
            code="turn_passed",
            params={"turn": turn_no, "edge": str(turn[-1]), "next": token},
        )
    try:
        edge = board.parse_edge(token)
        board.play(edge)
    except RulesError as exc:
        drawn = isinstance(exc, IllegalMoveError)
        raise InvalidRecordError(
            f"turn {turn_no}: {exc}",
            turn=turn_no,
            edge=token,
            code="edge_drawn" if drawn else "edge_invalid",
            params={"turn": turn_no, "edge": token, "why": str(exc)},
        ) from None
    return edge


def _claimed_last(board: Board) -> bool:
    return bool(board.last_claimed)
