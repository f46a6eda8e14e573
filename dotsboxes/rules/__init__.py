"""The rules of Dots and Boxes, in pure Python (no Django).

>>> from dotsboxes.rules import Board
>>> board = Board(1, 1)
>>> for text in ("a1-b1", "a2-b2", "a1-a2"):
...     board.play(text)
()
()
()
>>> board.play("b1-b2"), board.scores, board.outcome().winner
((0,), (0, 1), <Player.RED: 1>)
"""

from __future__ import annotations

from .board import Board, Outcome, Player
from .edges import Edge, dot_name
from .errors import (
    IllegalMoveError,
    InvalidEdgeError,
    InvalidRecordError,
    InvalidSizeError,
    RulesError,
)
from .notation import GameRecord, format_record, group_turns, parse_record, parse_turns

__all__ = [
    "Board",
    "Edge",
    "GameRecord",
    "IllegalMoveError",
    "InvalidEdgeError",
    "InvalidRecordError",
    "InvalidSizeError",
    "Outcome",
    "Player",
    "RulesError",
    "dot_name",
    "format_record",
    "group_turns",
    "parse_record",
    "parse_turns",
]
