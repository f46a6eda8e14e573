"""The stored practice answers are the exact solver's, and rules answers come from the rules."""

from __future__ import annotations

import pytest

from dotsboxes.engine.solver import move_values
from dotsboxes.guide import answers
from dotsboxes.guide.exercises import BY_SLUG, EXERCISES, TRACKS, next_exercise

EDGE_EXERCISES = [e for e in EXERCISES if e.kind == "edge"]


@pytest.mark.parametrize("exercise", EDGE_EXERCISES, ids=lambda e: e.slug)
def test_stored_move_values_are_what_the_solver_says(exercise):
    solved = move_values(exercise.board)
    assert solved is not None
    assert answers.move_values(exercise) == {str(e): v for e, v in solved.items()}


@pytest.mark.parametrize("exercise", EDGE_EXERCISES, ids=lambda e: e.slug)
def test_the_exercise_names_every_move_of_optimal_value(exercise):
    values = answers.move_values(exercise)
    best = max(values.values())
    assert {e for e, v in values.items() if v == best} == set(exercise.best)


@pytest.mark.parametrize(
    ("slug", "expected"),
    [
        ("who-moves-after-a-claim", "blue"),
        ("who-moves-after-a-plain-edge", "red"),
        ("count-a-double-claim", "2"),
        ("whose-box", "red"),
    ],
)
def test_rules_questions_are_answered_by_the_rules_core(slug, expected):
    assert BY_SLUG[slug].correct_choice() == expected


def test_replay_exercises_ask_at_the_move_that_was_played_badly():
    for exercise in (e for e in EXERCISES if e.record):
        values = answers.move_values(exercise)
        assert values[exercise.mistake] < max(values.values())


def test_every_track_has_exercises_and_the_next_one_follows_in_order():
    assert {e.track for e in EXERCISES} == {slug for slug, _, _ in TRACKS}
    assert next_exercise(EXERCISES[0]) is EXERCISES[1]
    assert next_exercise(EXERCISES[-1]) is None
