"""Every study's answer is the exact solver's: a wrong study fails the build."""

# ruff: noqa: RUF001, RUF002 - the texts use real typography (en dash in scores).

from __future__ import annotations

import re

import pytest

from dotsboxes.engine.solver import move_values
from dotsboxes.guide.studies import STUDIES
from dotsboxes.rules import Board

SCORE = re.compile(r"\b(\d+)–(\d+)\b")
EDGE = re.compile(r"\b[a-j](?:10|[1-9])-[a-j](?:10|[1-9])\b")


def final_score(board: Board, value: int) -> tuple[int, int]:
    """(Blue, Red) at the end when the side to move ends ``value`` ahead on the open boxes."""
    blue, red = board.scores
    mover = (board.unclaimed + value) // 2
    other = board.unclaimed - mover
    return (blue + mover, red + other) if board.turn.name == "BLUE" else (blue + other, red + mover)


@pytest.mark.parametrize("study", STUDIES, ids=lambda s: s.slug)
def test_the_study_names_exactly_the_best_moves_and_the_right_value(study):
    values = move_values(study.board)
    assert values is not None
    best = max(values.values())
    assert best == study.value
    assert {str(e) for e, v in values.items() if v == best} == set(study.best)


@pytest.mark.parametrize("study", STUDIES, ids=lambda s: s.slug)
def test_what_the_reasoning_says_other_moves_lead_to_is_the_solvers_verdict(study):
    values = {str(e): v for e, v in move_values(study.board).items()}
    for moves, score in study.lines:
        assert moves <= set(values), moves  # every named move can be drawn
        assert final_score(study.board, max(values[m] for m in moves)) == score, moves


def written_scores(text: str, mover: str) -> list[tuple[int, int]]:
    """Each "a–b" in the text as (Blue, Red). The score belongs to the player named last
    before it in its sentence ("Red wins 5–4", "Blue loses 2–6"), else to the side to move."""
    scores = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        for match in SCORE.finditer(sentence):
            named = re.findall(r"\b(Blue|Red)\b", sentence[: match.start()])
            subject = (named[-1] if named else mover).lower()
            a, b = int(match.group(1)), int(match.group(2))
            scores.append((a, b) if subject == "blue" else (b, a))
    return scores


@pytest.mark.parametrize("study", STUDIES, ids=lambda s: s.slug)
def test_every_score_written_in_the_study_is_one_the_solver_bears_out(study):
    known = {final_score(study.board, study.value), *(score for _, score in study.lines)}
    known.add(study.board.scores)  # the score now, as the question may say
    text = " ".join((study.question, study.answer, *study.reasoning))
    for score in written_scores(text, study.turn):
        assert score in known, f"{score} (Blue, Red) in {study.slug}"


def test_a_score_is_read_for_the_player_named_before_it():
    assert written_scores("Red wins 5–4. Then Blue loses 2–6; or 3–5.", "red") == [
        (4, 5),
        (2, 6),
        (3, 5),
    ]
    assert written_scores("Take all three and win 6–2.", "red") == [(2, 6)]


@pytest.mark.parametrize("study", [s for s in STUDIES if s.kind == "move"], ids=lambda s: s.slug)
def test_the_answer_names_only_best_moves_and_every_named_edge_exists(study):
    assert set(EDGE.findall(study.answer)) <= set(study.best)
    legal = {str(e) for e in study.board.legal_moves} | {str(e) for e in study.board.drawn}
    for text in (study.question, *study.reasoning):
        assert set(EDGE.findall(text)) <= legal


@pytest.mark.parametrize("study", [s for s in STUDIES if s.kind == "result"], ids=lambda s: s.slug)
def test_a_result_study_really_has_every_move_equal(study):
    assert set(study.best) == {str(e) for e in study.board.legal_moves}


def test_there_are_at_least_twelve_studies_from_small_boards_to_five_by_five():
    assert len(STUDIES) >= 12
    sizes = {(s.board.width, s.board.height) for s in STUDIES}
    assert (2, 2) in sizes and (5, 5) in sizes
    assert len({s.slug for s in STUDIES}) == len(STUDIES)
    assert STUDIES[0].board.num_boxes < STUDIES[-1].board.num_boxes  # small to large


def test_the_listed_themes_each_have_a_study():
    slugs = {s.slug for s in STUDIES}
    for theme in (
        "two-boxes-one-edge",  # one edge claiming two boxes
        "all-but-two",  # the all-but-two trick
        "give-the-smallest",  # opening the shortest chain
        "loop-before-chain",  # a loop versus a chain
        "sacrifice-to-win-control",  # a sacrifice that wins control
    ):
        assert theme in slugs


def test_a_study_that_claims_a_thirteen_twelve_finish_gets_it():
    study = next(s for s in STUDIES if s.slug == "thirteen-twelve")
    assert final_score(study.board, study.value) == (13, 12)
