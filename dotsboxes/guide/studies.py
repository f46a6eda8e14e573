"""Position studies: a position, a question, and an answer with its reasoning.

The studies themselves are data, not code: ``data/studies.json`` holds each
study's position, question, answer and reasoning, its texts in English and
Chinese (see docs/decisions/0303-guide-content-as-data.md).  They are read once,
when this module is first imported.

Every study records the set of best moves (``best``: every move of optimal
value) and the value of the position for the side to move (``value``: the
final margin over the boxes still unclaimed, with best play on both sides).
The test suite checks both against the engine's exact solver, so a study
that claims something the game does not bear out fails the build.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from importlib import resources

from dotsboxes.rules import Board

from .positions import from_picture
from .texts import Text


@dataclass(frozen=True)
class Study:
    slug: str
    title: Text
    level: Text  # "First steps", "Control" or "Expert"
    picture: str
    turn: str
    question: Text
    answer: Text
    reasoning: tuple[Text, ...]
    best: frozenset[str]
    value: int
    # "move": the answer is a move (its edges are marked when revealed);
    # "result": the answer is the result, and every move is as good as another.
    kind: str = "move"
    # What the reasoning says other moves lead to: (moves, (Blue, Red) final score with
    # best play after the best of those moves).  The tests check each against the solver,
    # and every score written in the texts must be one of these or the answer's.
    lines: tuple[tuple[frozenset[str], tuple[int, int]], ...] = ()

    @cached_property
    def board(self) -> Board:
        return from_picture(self.picture, turn=self.turn)

    @property
    def key(self) -> str:
        return self.board.key()


def _study(data: dict) -> Study:
    return Study(
        slug=data["slug"],
        title=Text.from_data(data["title"]),
        level=Text.from_data(data["level"]),
        picture="\n".join(data["picture"]),
        turn=data["turn"],
        question=Text.from_data(data["question"]),
        answer=Text.from_data(data["answer"]),
        reasoning=tuple(Text.from_data(p) for p in data["reasoning"]),
        best=frozenset(data["best"]),
        value=data["value"],
        kind=data["kind"],
        lines=tuple((frozenset(line["moves"]), tuple(line["score"])) for line in data["lines"]),
    )


def load() -> tuple[Study, ...]:
    """Every study of ``data/studies.json``, in the guide's order."""
    text = resources.files(__package__).joinpath("data/studies.json").read_text(encoding="utf-8")
    return tuple(_study(item) for item in json.loads(text)["studies"])


STUDIES: tuple[Study, ...] = load()

BY_SLUG = {study.slug: study for study in STUDIES}
