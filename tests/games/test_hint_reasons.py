"""Every reason the engine gives for a hint is said in the reader's language."""

# ruff: noqa: RUF001 - Chinese text uses full-width punctuation.

from __future__ import annotations

import random
import re

from django.utils import translation

from dotsboxes.engine.analysis import analyse
from dotsboxes.engine.players import _outlook, explain, hint
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


def test_a_hints_proved_or_estimated_label_is_said_in_chinese_too():
    # The hint ends with what the engine knows: a proved value, a move proved best
    # without its value, or an estimate.  Each label is the engine's own (hint()),
    # on positions where the solver settles it and where it cannot.
    two_by_two = Board(2, 2)
    for text in ("a1-b1", "a2-b2", "a1-a2"):
        two_by_two.play(text)
    proved = hint(two_by_two, budget=0.05, hard_stop=False).reason
    estimated = hint(Board(5, 5), budget=0.05, hard_stop=False).reason
    assert "; proved: " in proved and estimated.endswith("; estimated, not proved")
    reasons = [
        proved,
        estimated,
        "sacrifice 2 boxes to change the long-chain parity; "
        "proved the best move (every other is worse)",
    ]
    with translation.override("zh-hans"):
        said = [reason_text(r) for r in reasons]
    for reason, text in zip(reasons, said, strict=True):
        assert not re.search(r"[A-Za-z]", EDGE.sub("", text)), (reason, text)
    assert said[0] == "吃掉这一格；已证明：双方走最佳着法时，剩下的格双方平分"
    assert said[1] == "安全：不会产生第三条边；估计值，未经证明"


def test_an_unknown_reason_stays_as_the_engine_wrote_it():
    with translation.override("zh-hans"):
        assert reason_text("a brand-new idea") == "a brand-new idea"
    with translation.override("en"):
        assert reason_text("take the box") == "take the box"
