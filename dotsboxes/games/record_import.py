"""Importing a game from its record (the rules core's notation, with an optional
``Position:`` header for a game from a set position): nothing is saved if the
record is bad, and the error names the turn and edge."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

from dotsboxes.engine import players
from dotsboxes.rules import (
    Board,
    GameRecord,
    InvalidRecordError,
    RulesError,
    parse_record,
    parse_turns,
)

from .errors import BadRecordError, InvalidSetupError
from .models import Game, Side
from .record_errors import record_error_text
from .seats import Actor
from .services import game_create

_TURN_PREFIX = re.compile(r"^turn \d+:\s*", re.I)
_POSITION_RE = re.compile(r"^\s*position\s*:\s*(\S+)\s*$", re.I | re.M)
_BODY_RE = re.compile(r"^\s*\d+\.", re.M)


def _read_record(text: str) -> tuple[GameRecord, str]:
    """Parse a record; one with a ``Position:`` header (a game from a set position,
    as the Record link writes it) is replayed from that position instead of the
    empty board.  Returns the record and the start key ('' for the empty board)."""
    found = _POSITION_RE.search(text)
    if not found:
        return parse_record(text), ""
    try:
        start = Board.from_key(found.group(1))
    except RulesError as exc:
        raise InvalidRecordError(
            f"the Position header is not a position key: {exc}", code="position_key"
        ) from None
    body = _BODY_RE.search(text)
    head, moves = (text[: body.start()], text[body.start() :]) if body else (text, "")
    record = parse_record(head)  # the headers alone: size and the rest
    if (record.width, record.height) != (start.width, start.height):
        raise InvalidRecordError(
            "the Position header does not match the Size line", code="position_size"
        )
    # The rules core's turn reader, run on the set position.
    record.turns = parse_turns(moves, start.copy()) if moves.strip() else []
    return record, start.key()


def game_import(
    *,
    text: str,
    actor: Actor,
    mode: str = Game.Mode.LOCAL,
    computer_side: str = Side.RED,
    computer_level: str = players.DEFAULT_LEVEL,
) -> Game:
    """Create a game from a record (the rules core's notation); nothing is saved if
    the record is bad, and the :class:`BadRecordError` names the turn and edge."""
    try:
        record, start_key = _read_record(text or "")
    except RulesError as exc:
        turn, edge = getattr(exc, "turn", None), getattr(exc, "edge", None)
        detail = _TURN_PREFIX.sub("", str(exc))
        # The rules name the whole position after "already drawn"; the turn says enough.
        detail = re.sub(r" is already drawn \(.*\)$", " is already drawn", detail)
        where = ""
        if turn is not None:
            where = f"Turn {turn}" + (f", edge {edge}" if edge else "") + ": "
            if detail.lower().startswith(f"turn {turn} ") and not edge:
                where, detail = "", detail[0].upper() + detail[1:]
        else:
            detail = detail[0].upper() + detail[1:]
        message = record_error_text(exc, f"{where}{detail}.")
        raise BadRecordError(message, turn=turn, edge=edge) from None
    headers = {k.lower(): v for k, v in record.headers.items()}
    try:
        hints = int(headers.get("hints", "0"))
    except ValueError:
        hints = 0
    if mode not in (Game.Mode.LOCAL, Game.Mode.COMPUTER):
        raise InvalidSetupError(_("Imported games continue on one device or against the computer."))
    names: dict[str, str] = {}
    if mode == Game.Mode.LOCAL:
        names = {"blue_name": headers.get("blue", ""), "red_name": headers.get("red", "")}
    return game_create(
        actor=actor,
        mode=mode,
        width=None if start_key else record.width,
        height=None if start_key else record.height,
        start_key=start_key,
        computer_side=computer_side,
        computer_level=computer_level,
        moves=record.edges,
        hints_used=hints,
        **names,
    )
