"""Pictures of positions: every diagram of the guide is typed as one."""

from __future__ import annotations

import pytest

from dotsboxes.guide.exercises import EXERCISES
from dotsboxes.guide.positions import PictureError, from_picture, to_picture
from dotsboxes.guide.studies import STUDIES
from dotsboxes.rules import Board, Player


@pytest.mark.parametrize("study", STUDIES, ids=lambda s: s.slug)
def test_every_study_picture_reads_back_exactly(study):
    assert to_picture(study.board) == study.picture.strip("\n")
    assert Board.from_key(study.key).key() == study.key


@pytest.mark.parametrize("exercise", [e for e in EXERCISES if e.picture], ids=lambda e: e.slug)
def test_every_exercise_picture_reads_back_exactly(exercise):
    assert to_picture(exercise.board) == exercise.picture.strip("\n")


def test_a_picture_gives_owners_scores_and_the_side_to_move():
    board = from_picture(
        """
+---+---+
| R | B |
+---+---+
|
+   +   +
""",
        turn="red",
    )
    assert (board.width, board.height) == (2, 2)
    assert board.owner((0, 1)) is Player.RED and board.owner((1, 1)) is Player.BLUE
    assert board.scores == (1, 1)
    assert board.turn is Player.RED
    assert board.is_drawn(board.parse_edge("a1-a2"))
    assert not board.is_drawn(board.parse_edge("a1-b1"))


@pytest.mark.parametrize(
    ("picture", "message"),
    [
        ("+---+\n|   |\n+---+", "closed but has no owner"),
        ("+---+\n| B\n+   +", "has a letter but is open"),
        ("+---+\n| X |\n+---+", "only B or R"),
        ("+--+\n|  |\n+--+", "top dot row"),
        ("+---+\n|   |", "a dot row"),
        ("+-*-+\n|   |\n+---+", "neither '---' nor blank"),
    ],
)
def test_a_picture_that_breaks_the_rules_is_refused(picture, message):
    with pytest.raises(PictureError, match=message):
        from_picture(picture)


def test_the_side_to_move_must_be_blue_or_red():
    with pytest.raises(PictureError, match="blue"):
        from_picture("+   +\n\n+   +", turn="green")
