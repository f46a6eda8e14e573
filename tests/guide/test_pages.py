"""Every page of the Learn section renders, with real diagrams and working links."""

# ruff: noqa: RUF001 - the pages use real typography (multiplication sign, en dash).

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from dotsboxes.guide.exercises import EXERCISES
from dotsboxes.guide.studies import STUDIES
from dotsboxes.rules import Board

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    """The page's text without tags (edge names are wrapped in spans)."""
    return re.sub(r"<[^>]+>", "", html)


PAGES = ["guide:index", "guide:rules", "guide:strategy", "guide:studies", "guide:practice"]


@pytest.mark.parametrize("name", PAGES)
def test_each_section_page_renders_with_a_heading_and_boards(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>" in html
    if name != "guide:index" and name != "guide:practice":
        assert 'class="board-svg' in html


def test_the_rules_page_states_the_facts_that_matter(client):
    html = client.get(reverse("guide:rules")).content.decode()
    for fact in (
        "6 × 6 = 36 dots and 60 possible edges",
        "the same player moves again",
        "Taking is optional",
        "13–12",
        "agree to a draw",
        "not as a tie",
        "<code>a1-b1</code>",
        "Who starts?",
    ):
        assert fact in html, fact


def test_the_strategy_guide_covers_every_idea_with_a_try_it_link(client):
    html = client.get(reverse("guide:strategy")).content.decode()
    for anchor in (
        "safe-edges",
        "no-safe-edge",
        "chains-and-loops",
        "control",
        "all-but-two",
        "handouts",
        "continuations",
    ):
        assert f'id="{anchor}"' in html
    links = re.findall(r'href="([^"]*\?position=[^"]+)"', html)
    assert len(links) >= 7
    for link in links:
        assert link.startswith(reverse("games:new") + "?position=")
        Board.from_key(unescape(link.split("=", 1)[1]).replace("%2E", "."))
    assert "dots + long chains to be even" in html


@pytest.mark.parametrize("study", STUDIES[::4], ids=lambda s: s.slug)
def test_a_try_it_link_opens_the_position_on_the_play_page(client, study):
    response = client.get(reverse("games:new"), {"position": study.key})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'aria-label="The starting position"' in html
    assert study.key in html  # the form carries the position to the new game


@pytest.mark.parametrize("study", STUDIES, ids=lambda s: s.slug)
def test_each_study_shows_the_question_and_keeps_the_answer_folded(client, study):
    response = client.get(reverse("guide:study", args=[study.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    assert study.question.split(".")[0] in text(html)
    assert '<details class="answer">' in html
    assert f"?position={study.key}" in html


def test_the_answer_opens_without_javascript_from_a_link(client):
    study = STUDIES[4]
    html = client.get(reverse("guide:study", args=[study.slug]), {"answer": "1"}).content.decode()
    assert '<details class="answer" open>' in html
    assert study.answer in text(html)


def test_an_unknown_study_or_exercise_is_a_plain_404(client):
    assert client.get(reverse("guide:study", args=["no-such-study"])).status_code == 404
    assert client.get(reverse("guide:exercise", args=["no-such-exercise"])).status_code == 404


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.slug)
def test_each_exercise_renders_an_answerable_board(client, exercise):
    response = client.get(reverse("guide:exercise", args=[exercise.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'method="post"' in html and "csrfmiddlewaretoken" in html
    if exercise.kind == "edge":
        buttons = re.findall(
            r'<button type="submit" class="pick pick-[hv]" name="edge" value="([^"]+)"', html
        )
        assert sorted(buttons) == sorted(str(e) for e in exercise.board.legal_moves)
    elif exercise.kind == "build":
        buttons = re.findall(r'class="pick pick-[hv]" name="edge" value="([^"]+)"', html)
        assert sorted(buttons) == sorted(exercise.box_sides())
    else:
        assert 'name="choice"' in html


def test_the_replay_steps_through_the_game_with_a_get_parameter(client):
    exercise = next(e for e in EXERCISES if e.record)
    url = reverse("guide:exercise", args=[exercise.slug])
    start = client.get(url, {"ply": 0}).content.decode()
    assert "After 0 of" in start
    end = client.get(url, {"ply": 999}).content.decode()
    assert "wins" in end
    odd = client.get(url, {"ply": "soon"})
    assert odd.status_code == 200
