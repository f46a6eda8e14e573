"""Hints for the player to move: the engine's recommended edge and a one-line reason.

The engine (:func:`dotsboxes.engine.players.hint`, the
:data:`~dotsboxes.games.jobs.hint` job of the play lane) works in the engine's
process pool or an engine worker (:mod:`dotsboxes.jobs`) with a small budget
while the request waits on the result; should that fail or overrun, the engine
answers in-thread with a tiny budget instead.
"""

from __future__ import annotations

import logging
import re

from django.utils.translation import gettext, ngettext

from dotsboxes.engine import players
from dotsboxes.engine.players import Hint
from dotsboxes.rules import Board

from .jobs import hint

log = logging.getLogger(__name__)

HINT_BUDGET = 0.5  # seconds of engine thought for a hint
GRACE = 3.0  # seconds the pool may overrun before the in-thread answer
FALLBACK_BUDGET = 0.05

__all__ = ["Hint", "reason_text", "recommend"]

# The engine is pure Python and explains its moves in fixed English phrases
# (``players.explain`` and ``players._outlook``); each is matched here and said in
# the reader's language.  tests/games/test_hint_reasons.py checks that every phrase
# the engine can write has its pattern.
_N = r"(\d+) box(?:es)?"
_PHRASES: list[tuple[re.Pattern[str], object]] = [
    (re.compile(p), say)
    for p, say in (
        ("take both boxes with one line", lambda: gettext("take both boxes with one line")),
        (
            "take the boxes: keeping control here would cost more than it gains",
            lambda: gettext("take the boxes: keeping control here would cost more than it gains"),
        ),
        ("take the box", lambda: gettext("take the box")),
        (
            "decline the last four boxes of the loop to keep control",
            lambda: gettext("decline the last four boxes of the loop to keep control"),
        ),
        (
            "decline the last two boxes to keep control",
            lambda: gettext("decline the last two boxes to keep control"),
        ),
        ("safe: creates no third side", lambda: gettext("safe: creates no third side")),
        ("every move gives boxes away here", lambda: gettext("every move gives boxes away here")),
        (
            f"sacrifice {_N} to change the long-chain parity",
            lambda n: ngettext(
                "sacrifice %(n)d box to change the long-chain parity",
                "sacrifice %(n)d boxes to change the long-chain parity",
                n,
            ),
        ),
        (
            f"open the loop of {_N}: it costs the controller more to keep control",
            lambda n: ngettext(
                "open the loop of %(n)d box: it costs the controller more to keep control",
                "open the loop of %(n)d boxes: it costs the controller more to keep control",
                n,
            ),
        ),
        (
            rf"open the shortest chain \({_N}\): every move gives boxes away now",
            lambda n: ngettext(
                "open the shortest chain (%(n)d box): every move gives boxes away now",
                "open the shortest chain (%(n)d boxes): every move gives boxes away now",
                n,
            ),
        ),
        (
            f"open the chain of {_N}: every move gives boxes away now",
            lambda n: ngettext(
                "open the chain of %(n)d box: every move gives boxes away now",
                "open the chain of %(n)d boxes: every move gives boxes away now",
                n,
            ),
        ),
        (
            r"with best play you take (\d+) more of the remaining boxes",
            lambda n: ngettext(
                "with best play you take %(n)d more of the remaining boxes",
                "with best play you take %(n)d more of the remaining boxes",
                n,
            ),
        ),
        (
            r"with best play you take (\d+) fewer of the remaining boxes",
            lambda n: ngettext(
                "with best play you take %(n)d fewer of the remaining boxes",
                "with best play you take %(n)d fewer of the remaining boxes",
                n,
            ),
        ),
        (
            "with best play the remaining boxes split evenly",
            lambda: gettext("with best play the remaining boxes split evenly"),
        ),
        # What the engine knows about its move (``players.hint``): an estimate, or
        # the best move proved without its value; a proved value is "proved: "
        # before the outlook (see _phrase).
        ("estimated, not proved", lambda: gettext("estimated, not proved")),
        (
            r"proved the best move \(every other is worse\)",
            lambda: gettext("proved the best move (every other is worse)"),
        ),
    )
]
_PROVED = "proved: "


def _phrase(text: str) -> str | None:
    if text.startswith(_PROVED):
        outlook = text.removeprefix(_PROVED)
        said = _phrase(outlook)
        return None if said is None else gettext("proved: %(outlook)s") % {"outlook": said}
    for pattern, say in _PHRASES:
        match = pattern.fullmatch(text)
        if match:
            if match.groups():
                n = int(match.group(1))
                return say(n) % {"n": n}
            return say()
    return None


def reason_text(reason: str) -> str:
    """The engine's English ``reason`` in the active language.

    A reason is one phrase, or two joined by "; " (the move, then the outlook).
    A phrase with no pattern (a new one in the engine) stays in English.
    """
    parts = [_phrase(part) or part for part in reason.split("; ")]
    if len(parts) == 2:
        return gettext("%(move)s; %(outlook)s") % {"move": parts[0], "outlook": parts[1]}
    return "; ".join(parts)


def recommend(board: Board) -> Hint:
    """The hint for the side to move on ``board`` (which must have an edge left)."""
    budget = min(HINT_BUDGET, players.default_budget("master", board) / 2)
    try:
        return hint.call(board, budget=budget, timeout=budget + GRACE)
    except Exception:
        log.warning("hint engine failed or overran at %s; answering in-thread", board.key())
        return players.hint(board, budget=FALLBACK_BUDGET)
