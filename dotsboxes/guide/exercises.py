"""Practice exercises in three tracks, answered on the board.

* Edge questions ("draw the edge that…") are checked against the value of
  every legal move, precomputed by the engine's exact solver and stored in
  ``answers.json``: any move of optimal value is right.  The positions are
  fixed, so the answers are computed once (``python -m dotsboxes.guide.answers``)
  and the test suite recomputes them with the solver; a request never runs the
  engine.
* Rules questions ("who moves next?", "how many boxes does it claim?") are
  answered by the rules core itself, at the moment of checking.
* Replay questions show a real game record and ask for a better move at the
  moment a chain was opened.

The exercises themselves are data: ``data/exercises.json`` holds each one's
position (or game and edge number), question and explanations, every text in
English and Chinese (docs/decisions/0303-guide-content-as-data.md), read once
when this module is first imported.  The tracks' names and the answer buttons
stay here, as catalogue messages.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from importlib import resources

from django.utils.translation import gettext_noop

from dotsboxes.rules import Board, Edge, parse_record

from .positions import from_picture
from .texts import Text

# The labels here are marked with gettext_noop: the data stays English (the tests
# read it) and each page shows it through gettext, in the reader's language.
TRACKS = (
    (
        "rules",
        gettext_noop("The rules"),
        gettext_noop("Draw and close boxes, count claims, say who owns a box and who moves."),
    ),
    (
        "control",
        gettext_noop("Keeping control"),
        gettext_noop("Compare candidate moves and find the one that keeps control."),
    ),
    (
        "replay",
        gettext_noop("Replays"),
        gettext_noop("Step through a real game and fix the move that opened a chain."),
    ),
)
TRACK_NAMES = {slug: name for slug, name, _ in TRACKS}

CHOICES = {
    "next": (("blue", gettext_noop("Blue")), ("red", gettext_noop("Red"))),
    "owner": (("blue", gettext_noop("Blue")), ("red", gettext_noop("Red"))),
    "claims": (("0", gettext_noop("None")), ("1", gettext_noop("One")), ("2", gettext_noop("Two"))),
    "build": (
        ("blue-blue", gettext_noop("Blue owns it; Blue draws next")),
        ("blue-red", gettext_noop("Blue owns it; Red draws next")),
        ("red-red", gettext_noop("Red owns it; Red draws next")),
        ("red-blue", gettext_noop("Red owns it; Blue draws next")),
    ),
}


@dataclass(frozen=True)
class Exercise:
    slug: str
    track: str
    title: Text
    prompt: Text
    right: Text  # why the right answer is right, in a sentence or two
    wrong: Text  # what to look for instead, in a sentence or two
    picture: str = ""
    turn: str = "blue"
    record: str = ""  # replay track: the whole game
    ply: int = 0  # replay track: the question is asked after this many edges
    # "edge", a rules question ("next", "claims", "owner"), or "build": draw the four
    # sides of box ``box`` one by one, then say who owns it and who draws next.
    kind: str = "edge"
    box: int = 0
    edge: str = ""  # rules questions: the edge being asked about (drawn dashed)
    best: frozenset[str] = frozenset()  # edge questions: every move of optimal value

    @cached_property
    def board(self) -> Board:
        """The position the question is asked in."""
        if self.record:
            game = parse_record(self.record).board()
            board = Board(game.width, game.height)
            for edge in game.move_stack[: self.ply]:
                board.push(edge)
            return board
        return from_picture(self.picture, turn=self.turn)

    @property
    def choices(self) -> tuple[tuple[str, str], ...]:
        return CHOICES.get(self.kind, ())

    def built(self, edges: list[str]) -> Board:
        """A build exercise's board after the edges drawn so far (checked by the rules)."""
        board = self.board.copy()
        for edge in edges:
            board.play(edge)
        return board

    def box_sides(self) -> set[str]:
        return {str(e) for e in self.board.box_edges(self.box)}

    def correct_choice(self, board: Board | None = None) -> str:
        """The answer to a rules question, worked out by the rules core."""
        if self.kind == "build":
            owner = board.owner(self.box) if board is not None else None
            if owner is None:
                raise ValueError("the box is not finished yet")
            return f"{owner.name.lower()}-{board.turn.name.lower()}"
        board = self.board.copy()
        edge = Edge.parse(self.edge)
        if self.kind == "claims":
            return str(board.claims(edge))
        claimed = board.play(edge)
        if self.kind == "next":
            return board.turn.name.lower()
        if self.kind == "owner":
            owner = board.owner(claimed[0])
            return owner.name.lower() if owner is not None else ""
        raise ValueError(f"{self.slug} is not a rules question")

    @property
    def mistake(self) -> str:
        """Replay track: the edge that was actually played at the question's moment."""
        if not self.record:
            return ""
        return str(parse_record(self.record).edges[self.ply])


def _exercise(data: dict, games: dict[str, list[str]]) -> Exercise:
    texts = {name: Text.from_data(data[name]) for name in ("title", "prompt", "right", "wrong")}
    return Exercise(
        slug=data["slug"],
        track=data["track"],
        kind=data["kind"],
        **texts,
        picture="\n".join(data.get("picture", ())),
        turn=data.get("turn", "blue"),
        record="\n".join(games[data["game"]]) + "\n" if "game" in data else "",
        ply=data.get("ply", 0),
        box=data.get("box", 0),
        edge=data.get("edge", ""),
        best=frozenset(data.get("best", ())),
    )


def load() -> tuple[Exercise, ...]:
    """Every exercise of ``data/exercises.json``, in the tracks' order."""
    text = resources.files(__package__).joinpath("data/exercises.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return tuple(_exercise(item, data["games"]) for item in data["exercises"])


EXERCISES: tuple[Exercise, ...] = load()

BY_SLUG = {exercise.slug: exercise for exercise in EXERCISES}


def track_exercises(track: str) -> list[Exercise]:
    return [e for e in EXERCISES if e.track == track]


def next_exercise(exercise: Exercise) -> Exercise | None:
    """The exercise after this one in the same track, then the next track's first."""
    index = EXERCISES.index(exercise)
    return EXERCISES[index + 1] if index + 1 < len(EXERCISES) else None
