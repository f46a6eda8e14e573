"""Every study's answer is the exact solver's: a wrong study fails the build."""

from __future__ import annotations

import pytest

from dotsboxes.engine.solver import move_values
from dotsboxes.guide.studies import STUDIES


@pytest.mark.parametrize("study", STUDIES, ids=lambda s: s.slug)
def test_the_study_names_exactly_the_best_moves_and_the_right_value(study):
    values = move_values(study.board)
    assert values is not None
    best = max(values.values())
    assert best == study.value
    assert {str(e) for e, v in values.items() if v == best} == set(study.best)


@pytest.mark.parametrize("study", [s for s in STUDIES if s.kind == "result"], ids=lambda s: s.slug)
def test_a_result_study_really_has_every_move_equal(study):
    assert set(study.best) == {str(e) for e in study.board.legal_moves}


def test_there_are_at_least_twelve_studies_from_small_boards_to_five_by_five():
    assert len(STUDIES) >= 12
    sizes = {(s.board.width, s.board.height) for s in STUDIES}
    assert (2, 2) in sizes and (5, 5) in sizes
    assert len({s.slug for s in STUDIES}) == len(STUDIES)
    assert STUDIES[0].board.num_boxes < STUDIES[-1].board.num_boxes  # small to large


def test_a_study_that_claims_a_thirteen_twelve_finish_gets_it():
    study = next(s for s in STUDIES if s.slug == "thirteen-twelve")
    blue, red = study.board.scores
    left = study.board.unclaimed
    mover_gets = (left + study.value) // 2
    assert (blue + mover_gets, red + left - mover_gets) == (13, 12)
