"""Every page of the Learn section renders, with real diagrams and working links."""

# ruff: noqa: RUF001 - the pages use real typography (multiplication sign, en dash).

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from dotsboxes.games.models import Game
from dotsboxes.guide.exercises import EXERCISES
from dotsboxes.guide.studies import STUDIES
from dotsboxes.rules import Board, Edge

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
        "Nobody may pass.",
        "one edge can claim two boxes at once",
        "exactly one undrawn edge",
    ):
        assert fact in html, fact
    faq = html[html.index('id="faq"') :]
    for question in (
        "Who starts?",
        "Why do I move again after claiming a box?",
        "Can a game on 5 × 5 boxes be drawn?",
        "How many boxes can one edge give?",
        "Does the turn change after every edge?",
    ):
        assert f"<summary>{question}</summary>" in faq, question
    # a diagram beside each rule: board, moves, no passing, fourth side, two boxes (before and
    # after), claim keeps the move, optional, tie, 13-12, notation
    assert html.count('class="board-svg') == 11


def try_links(html: str) -> list[str]:
    return [unescape(h) for h in re.findall(r'<a class="try-it" href="([^"]+)"', html)]


def form_data(html: str) -> dict[str, str]:
    """What a browser sends for the page's new-game form left as it is."""
    form = re.search(r'<form[^>]*class="new-game".*?</form>', html, re.S).group(0)
    data = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and ('type="radio"' not in tag or " checked" in tag):
            data[name.group(1)] = unescape(value.group(1)) if value else ""
    for name, options in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        data[name] = re.search(r'value="([^"]+)" selected', options).group(1)
    return data


def start_from(client, link: str) -> Game:
    """Follow a "try it" link and press "Start the game" without changing anything."""
    page = client.get(link)
    assert page.status_code == 200
    response = client.post(reverse("games:new"), form_data(page.content.decode()))
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])


def test_the_strategy_guide_covers_every_idea_with_a_try_it_link(client):
    html = client.get(reverse("guide:strategy")).content.decode()
    sections = re.split(r'<h2 id="', html)[1:]
    ideas = {
        "safe-edges",
        "no-safe-edge",
        "chains-and-loops",
        "control",
        "all-but-two",
        "handouts",
        "continuations",
    }
    found = {}
    for section in sections:
        anchor = section.split('"', 1)[0]
        found[anchor] = section
    for idea in ideas:
        assert 'class="board-svg' in found[idea], idea  # a diagram of a real position
        assert try_links(found[idea]), idea  # and a link that opens it on the play page
    assert "dots + long chains to be even" in html


def test_every_try_it_link_starts_that_position_with_the_learner_to_move(client):
    pages = [reverse("guide:strategy")] + [reverse("guide:study", args=[s.slug]) for s in STUDIES]
    links = [link for page in pages for link in try_links(client.get(page).content.decode())]
    assert len(links) >= 12 + len(STUDIES)
    for link in links:
        query = parse_qs(urlsplit(link).query)
        key, side = query["position"][0], query["side"][0]
        board = Board.from_key(key)
        assert side == board.turn.name.lower()
        game = start_from(client, link)
        assert game.start_key == key
        assert game.computer_side != side  # the learner plays the move the text is about


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
        missing = [s for s in exercise.box_sides() if not exercise.board.is_drawn(Edge.parse(s))]
        assert sorted(buttons) == sorted(missing)
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
