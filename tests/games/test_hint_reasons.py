"""Every reason the engine gives for a hint is said in the reader's language."""

# ruff: noqa: RUF001 - Chinese text uses full-width punctuation.

from __future__ import annotations

import random
import re

from django.utils import translation

from dotsboxes.engine.analysis import analyse
from dotsboxes.engine.players import _outlook, explain
from dotsboxes.games.hints import reason_text
from dotsboxes.rules import Board

EDGE = re.compile(r"\b[a-j]\d+-[a-j]\d+\b")


def engine_reasons() -> set[str]:
    """The reasons ``explain`` writes for every legal move of many random positions."""
    rng = random.Random(17)
    reasons = {_outlook(v) for v in (-3, -1, 0, 1, 4)}
    for size in ((2, 2), (3, 3), (4, 3), (5, 5)):
        for _ in range(12):
            board = Board(*size)
            while not board.is_over():
                analysis = analyse(board)
                for edge in board.legal_moves:
                    reasons.add(explain(board, edge, analysis))
                board.play(rng.choice(board.legal_moves))
    return reasons


def test_every_engine_reason_has_a_chinese_sentence():
    reasons = engine_reasons()
    # The sample must reach the engine's different kinds of reason.
    assert len({re.sub(r"\d+", "N", r) for r in reasons}) >= 10
    with translation.override("zh-hans"):
        for reason in reasons:
            said = reason_text(reason)
            assert not re.search(r"[A-Za-z]", EDGE.sub("", said)), (reason, said)
        both = reason_text("take the box; with best play you take 2 more of the remaining boxes")
        assert both == "吃掉这一格；双方走最佳着法时，剩下的格中你多得 2 格"


def test_an_unknown_reason_stays_as_the_engine_wrote_it():
    with translation.override("zh-hans"):
        assert reason_text("a brand-new idea") == "a brand-new idea"
    with translation.override("en"):
        assert reason_text("take the box") == "take the box"
