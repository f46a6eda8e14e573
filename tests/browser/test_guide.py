"""A learner reads the rules, studies a position and solves an exercise by clicking."""

# ruff: noqa: RUF001 - the pages use real typography (multiplication sign, en dash).

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from dotsboxes.games.models import Game
from dotsboxes.guide.exercises import BY_SLUG, next_exercise
from dotsboxes.guide.studies import BY_SLUG as STUDIES
from tests.browser.conftest import ARTIFACTS
from tests.guide.test_from_game import finished_game

pytestmark = pytest.mark.browser


def test_a_learner_reads_the_rules_opens_a_study_and_solves_an_exercise(
    live_server, page, screenshot
):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server.url + "/learn/rules/")
    expect(page.get_by_role("heading", name="The rules of Dots and Boxes")).to_be_visible()
    expect(page.get_by_text("the closest finish is 13–12")).to_be_visible()
    page.get_by_text("Can a game on 5 × 5 boxes be drawn?").click()
    expect(page.get_by_text("25 is odd, so one player always ends with 13")).to_be_visible()
    screenshot("rules")

    page.get_by_role("navigation", name="Learn").get_by_role("link", name="Studies").click()
    page.get_by_role("link", name="All but two").click()
    answer = page.get_by_text("Not: draw e2-e3 and leave both boxes to Red.")
    expect(answer).to_be_hidden()
    page.get_by_text("Show the answer").click()
    expect(answer).to_be_visible()
    expect(page.locator(".answer-board .highlight[data-edge='e2-e3']")).to_have_count(1)
    screenshot("study")

    page.goto(live_server.url + "/learn/practice/")
    page.get_by_role("link", name="Leave two").click()
    page.get_by_role("button", name="Draw d3-d4").click()  # takes the boxes: loses control
    expect(
        page.locator("#answer").get_by_text("Not quite: d3-d4 gives away 2 boxes")
    ).to_be_visible()
    page.get_by_role("button", name="Draw e3-e4").click()
    expect(page.locator("#answer").get_by_text("Right: e3-e4.")).to_be_visible()
    expect(page.locator(".diagram .highlight[data-edge='e3-e4']")).to_have_count(1)
    screenshot("exercise")
    page.get_by_role("link", name="Next exercise").click()
    expect(page.locator("h1")).to_have_text(next_exercise(BY_SLUG["leave-two"]).title)
    page.goto(live_server.url + "/learn/practice/")
    expect(page.get_by_text("Solved 1 of")).to_be_visible()


def test_a_rules_question_is_answered_with_a_choice_without_javascript(live_server, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + "/learn/practice/who-moves-after-a-claim/")
    page.get_by_role("button", name="Red").click()
    expect(page.get_by_text("Not quite: Red.")).to_be_visible()
    page.get_by_role("button", name="Blue").click()
    expect(page.get_by_text("Right: Blue.")).to_be_visible()
    context.close()


@pytest.mark.parametrize(
    "path",
    [
        "/learn/",
        "/learn/rules/",
        "/learn/strategy/",
        "/learn/studies/",
        "/learn/studies/thirteen-twelve/?answer=1",
        "/learn/practice/",
        "/learn/practice/five-by-five-endgame/",
        "/learn/practice/replay-the-last-safe-edge/",
    ],
)
def test_learn_pages_fit_a_375px_phone(live_server, browser, path):
    context = browser.new_context(viewport={"width": 375, "height": 740})
    page = context.new_page()
    page.goto(live_server.url + path)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    ARTIFACTS.mkdir(exist_ok=True)
    name = path.strip("/").replace("/", "-").replace("?", "-")
    page.screenshot(path=str(ARTIFACTS / f"guide-375-{name}.png"), full_page=True)
    context.close()


def test_a_try_it_link_starts_the_study_position_with_the_learner_to_move(live_server, page):
    study = STUDIES["the-last-safe-edge"]  # Red to move: the learner must get Red
    page.goto(live_server.url + f"/learn/studies/{study.slug}/")
    page.get_by_role("link", name="Try it on the board").click()
    expect(page.get_by_label("Red: you draw the next edge")).to_be_checked()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#game")).to_be_visible()
    page.wait_for_load_state("load")
    game = Game.objects.get(public_id=page.url.rstrip("/").split("/")[-1])
    assert game.start_key == study.key and game.computer_side == "blue"
    page.locator('.slot[data-edge="a1-a2"]').click()  # the study's answer, drawn on the board
    expect(page.locator('.edge.drawn[data-edge="a1-a2"]')).to_have_count(1)
    game.refresh_from_db()
    assert game.moves.first().edge == "a1-a2"


def test_learning_from_a_finished_game_lists_the_costly_move_and_retries_it(live_server, page):
    game = finished_game()  # Dev (Red) opened a chain of four at edge 12
    page.goto(live_server.url + f"/learn/from-game/{game.public_id}/")
    row = page.locator(".mistake-row", has_text="Edge 12")
    expect(row).to_contain_text("gave away 4 boxes", timeout=60_000)  # htmx polls the review
    row.get_by_role("link", name="Retry this position").click()
    page.get_by_role("button", name="Draw a1-a2").click()
    expect(page.locator("#answer").get_by_text("is the move from the game")).to_be_visible()
    page.get_by_role("button", name="Draw a3-b3").click()
    expect(
        page.locator("#answer").get_by_text("Right: a3-b3 is as good as the best move.")
    ).to_be_visible()


def test_a_screen_reader_hears_each_practice_verdict_from_a_live_region_that_stays(
    live_server, page
):
    # A live region swapped in with its text is not reliably read out: the exercise's
    # stays in the page (as the puzzle trainer's) and only its text changes.
    item = BY_SLUG["leave-two"]
    page.goto(live_server.url + f"/learn/practice/{item.slug}/")
    status = page.locator("#guide-status")
    expect(status).to_have_attribute("aria-live", "polite")
    page.evaluate("window.liveRegion = document.getElementById('guide-status')")
    page.get_by_role("button", name="Draw d3-d4").click()
    expect(status).to_contain_text("Not quite: d3-d4 gives away 2 boxes against best play.")
    expect(status).to_contain_text(item.wrong[:30])
    page.get_by_role("button", name="Draw e3-e4").click()
    expect(status).to_contain_text("Right: e3-e4. " + item.right[:30])
    expect(status).to_contain_text("Solved in 2 tries.")
    assert page.evaluate("document.getElementById('guide-status') === window.liveRegion")
    assert page.locator("[aria-live]").count() == 1  # the verdict is not said twice


def test_a_screen_reader_hears_each_retry_verdict_from_a_live_region_that_stays(live_server, page):
    game = finished_game()  # Dev (Red) opened a chain of four at edge 12
    page.goto(live_server.url + f"/learn/from-game/{game.public_id}/")
    row = page.locator(".mistake-row", has_text="Edge 12")
    expect(row).to_contain_text("gave away 4 boxes", timeout=60_000)  # htmx polls the review
    row.get_by_role("link", name="Retry this position").click()
    status = page.locator("#guide-status")
    expect(status).to_have_attribute("aria-live", "polite")
    page.evaluate("window.liveRegion = document.getElementById('guide-status')")
    page.get_by_label("Or type the edge").fill("zz")
    page.get_by_role("button", name="Check").click()
    expect(status).not_to_have_text("")  # bad input is explained in the same region
    page.get_by_role("button", name="Draw a1-a2").click()
    expect(status).to_contain_text("a1-a2 is the move from the game: it gives away")
    page.get_by_role("button", name="Draw a3-b3").click()
    expect(status).to_contain_text("Right: a3-b3 is as good as the best move.")
    assert page.evaluate("document.getElementById('guide-status') === window.liveRegion")
    assert page.locator("[aria-live]").count() == 1  # the verdict is not said twice
