"""The guide's studies as a study text: every one exported and imported is the same study,
and the claims they make are the guide's own, which the solver checks."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from dotsboxes.engine import solver
from dotsboxes.guide.as_study import blue_final, guide_study
from dotsboxes.guide.studies import STUDIES
from dotsboxes.rules import Board
from dotsboxes.studies import checks, services
from dotsboxes.studies.notation import format_study, parse_study


def test_every_guide_study_exported_and_read_back_is_the_same_study():
    study = guide_study()
    assert len(study.chapters) == len(STUDIES)
    text = format_study(study)
    assert parse_study(text) == study
    assert format_study(parse_study(text)) == text


@pytest.mark.django_db
def test_every_guide_study_downloaded_and_imported_is_the_same_study(client):
    text = client.get("/learn/studies/as-text").content.decode()
    owner = get_user_model().objects.create_user("teacher", password="pw-very-secret-1")
    imported = services.study_import(owner=owner, text=text)
    assert imported.as_notation() == guide_study()
    assert services.study_export(imported) == text


@pytest.mark.parametrize("study", STUDIES[:6], ids=lambda s: s.slug)
def test_the_claims_of_the_first_guide_studies_hold_by_the_solver(study):
    # tests/guide/test_studies.py checks every study's best moves and value; here the
    # claims written from them read the same to the solver (the small boards: quick).
    from dotsboxes.guide.as_study import chapter

    written = chapter(study)
    board = Board.from_key(written.start_key)
    values = solver.move_values(board)
    top = max(values.values())
    for claim in checks.claims(written):
        if claim.kind == "best":
            assert values[board.parse_edge(claim.edge)] == top, claim
        else:
            assert claim.blue == blue_final(study)
            assert (
                claim.blue
                == board.scores[0]
                + (board.unclaimed + (top if board.turn.name == "BLUE" else -top)) // 2
            )
