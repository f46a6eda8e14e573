"""A game's record as text, in the rules core's notation (``dotsboxes.rules.notation``)."""

from __future__ import annotations

from django.utils import timezone, translation

from dotsboxes.rules import GameRecord, format_record

from .history import turns
from .models import Game
from .presenters import build_panel
from .seats import Actor


def record_text(game: Game) -> str:
    """The record of ``game`` with its header (names, date, result): what the record
    page serves, the data archive holds and the import page reads back."""
    # A record is data in the notation's own (English) words, whoever asks for it:
    # any reader's import must parse it.
    with translation.override("en"):
        return _english_record_text(game)


def _english_record_text(game: Game) -> str:
    board = game.board()
    headers = {
        "Blue": game.blue_name,
        "Red": game.red_name,
        "Date": timezone.localtime(game.created_at).date().isoformat(),
    }
    if game.mode == Game.Mode.COMPUTER:
        headers["Computer"] = f"{game.get_computer_side_display()} ({game.computer_level})"
    headers["Hints"] = str(game.hints_used)
    if game.start_key:
        headers["Position"] = game.start_key
    panel_result = build_panel(game, viewer=Actor()).result_text
    if panel_result:
        headers["Result"] = panel_result
    record = GameRecord(board.width, board.height, [t.edges for t in turns(board)], headers)
    return format_record(record)
