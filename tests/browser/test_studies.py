"""Studies in Chromium: an author writes from a finished game and meets the solver's
refutation; a reader signed out answers and steps through lines, with and without
JavaScript, and on a phone."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from dotsboxes.engine import solver
from dotsboxes.rules import Board
from dotsboxes.studies import services
from dotsboxes.studies.models import Study
from tests.gamefactory import played_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "plenty-of-boxes-42"
SHOTS = Path("/work/lead/shots")


def _shot(page, name):
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / f"issue27-{name}.png"), full_page=True)


def _sign_in(page, url, name):
    page.goto(url + "/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".account-name")).to_have_text(name)


def _worst_and_best(board: Board) -> tuple[str, str]:
    values = solver.move_values(board)
    top = max(values.values())
    worst = min(values, key=lambda e: (values[e], str(e)))
    best = min((e for e in values if values[e] == top), key=str)
    assert values[worst] < top
    return str(worst), str(best)


def test_an_author_makes_a_study_from_a_game_meets_a_refutation_fixes_it_and_publishes(
    live_server, page
):
    ada = get_user_model().objects.create_user("ada", password=PASSWORD)
    game = played_game(width=3, height=3, seed=4, blue_user=ada)
    assert game.status == "finished"
    _sign_in(page, live_server.url, "ada")
    page.goto(live_server.url + "/studies/")
    page.get_by_role("link", name="New study").click()
    page.get_by_label("Title").fill("Lessons from my game")
    page.get_by_role("button", name="Create the study").click()
    for title, ply in (("The middle game", 10), ("The end", 16)):
        page.goto(live_server.url + f"/studies/{Study.objects.get().slug}/edit")
        page.get_by_label("Chapter title").fill(title)
        page.get_by_label("or a game of the site (its link)").fill(
            live_server.url + f"/play/{game.public_id}/"
        )
        page.get_by_label("from edge").fill(str(ply))
        page.get_by_role("button", name="Add the chapter").click()
        expect(page.get_by_role("heading", name=title)).to_be_visible()
    study = Study.objects.get()
    assert study.chapters.count() == 2
    page.goto(live_server.url + f"/studies/{study.slug}/1/edit")
    start = game.board(ply=10)
    worst, best = _worst_and_best(Board.from_key(start.key()))
    # The author draws a move on the board from the start and marks it best: it is not.
    page.locator(f'.board-form .slot[data-edge="{worst}"]').click()
    expect(page.locator("#replay")).to_have_attribute("data-at", "1")
    page.get_by_label("Mark as a best move (the solver checks it)").check()
    page.get_by_label("Comment").fill("I think this is the move.")
    page.get_by_role("button", name="Save", exact=True).click()
    refutation = page.locator(".claims-here .verdict-refuted")
    expect(refutation).to_contain_text("is better", timeout=60_000)
    expect(page.locator(".chapter-badge [data-badge]")).to_have_attribute("data-badge", "refuted")
    _shot(page, "refuted-1280")
    # Fixed: that move goes, the best one is drawn and marked instead.
    page.get_by_role("button", name="Delete this move and what follows").click()
    page.locator(f'.board-form .slot[data-edge="{best}"]').click()
    expect(page.locator("#replay")).not_to_have_attribute("data-at", "")
    page.get_by_label("Mark as a best move (the solver checks it)").check()
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".chapter-badge [data-badge]")).to_have_attribute(
        "data-badge", "proved", timeout=60_000
    )
    # Published.
    page.goto(live_server.url + f"/studies/{study.slug}/edit")
    page.get_by_label("Who may see it").select_option("public")
    page.get_by_role("button", name="Save", exact=True).click()
    page.goto(live_server.url + "/studies/")
    expect(page.get_by_role("link", name="Lessons from my game").first).to_be_visible()
    page.goto(live_server.url + f"/studies/{study.slug}/")
    expect(page.locator("#chapters [data-badge]").first).to_have_attribute("data-badge", "proved")
    _shot(page, "study-1280")


def _reader_study() -> tuple[Study, Board]:
    owner = get_user_model().objects.create_user("coach", password=PASSWORD)
    text = (
        "Dots and Boxes study\nTitle: Two by two\n\nChapter: First move\n"
        "Size: 2 x 2 boxes (3 x 3 dots)\nQuestion: best\nQuestion: blue\n\n"
        "{Blue to move.} 1. a1-b1 {An outside edge.} (1. a2-b2 {The middle gives a box.} "
        "2. a1-a2) 2. b1-c1 3. a3-b3\n"
    )
    study = services.study_import(owner=owner, text=text, visibility="public")
    return study, Board(2, 2)


def _wait_for_check(board):
    from dotsboxes.studies.models import PositionCheck

    deadline = time.monotonic() + 60
    while not PositionCheck.objects.filter(key=board.key(), status="done").exists():
        assert time.monotonic() < deadline, "the start position was never checked"
        time.sleep(0.1)


def test_a_reader_signed_out_answers_on_the_board_and_steps_through_the_variations(
    live_server, page
):
    study, board = _reader_study()
    _wait_for_check(board)
    solution = solver.solve(board)
    page.goto(live_server.url + f"/studies/{study.slug}/1/")
    wrong = next(e for e in board.legal_moves if e not in solution.best)
    page.locator(f'.board-form .slot[data-edge="{wrong}"]').click()
    expect(page.locator('[data-testid="answer-1"]')).to_contain_text(f"No: {wrong} gives away")
    page.locator(f'.board-form .slot[data-edge="{solution.best[0]}"]').click()
    expect(page.locator('[data-testid="answer-1"]')).to_contain_text("Right")
    page.get_by_role("spinbutton", name="Boxes").fill(str((4 + solution.value) // 2))
    page.locator("#question-2").get_by_role("button", name="Check").click()
    expect(page.locator('[data-testid="answer-2"]')).to_contain_text("Right: Blue takes")
    # The keyboard steps along the main line; the variation is one click away.
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay")).to_have_attribute("data-at", "0")
    expect(page.locator('[data-testid="comment"]')).to_contain_text("An outside edge.")
    page.keyboard.press("End")
    expect(page.locator("#replay")).to_have_attribute("data-at", "0.0.0")
    page.keyboard.press("Home")
    expect(page.locator("#replay")).to_have_attribute("data-at", "")
    page.keyboard.press("ArrowRight")
    page.locator(".variations").get_by_role("link", name="a2-b2").click()
    expect(page.locator('[data-testid="comment"]')).to_contain_text("The middle gives a box.")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay")).to_have_attribute("data-at", "1.0")
    _shot(page, "reader-1280")


def test_the_same_without_javascript_on_a_phone(live_server, browser):
    study, board = _reader_study()
    _wait_for_check(board)
    solution = solver.solve(board)
    page = browser.new_context(
        java_script_enabled=False, viewport={"width": 375, "height": 800}
    ).new_page()
    page.goto(live_server.url + f"/studies/{study.slug}/1/")
    page.get_by_label("type the edge").fill(str(solution.best[0]))
    page.locator("#question-1").get_by_role("button", name="Check").click()
    expect(page.locator('[data-testid="answer-1"]')).to_contain_text("Right")
    page.locator("#replay").get_by_role("link", name="a2-b2").first.click()
    expect(page.locator('[data-testid="comment"]')).to_contain_text("The middle gives a box.")
    page.locator('[data-nav="next"]').click()
    expect(page.locator("#replay")).to_have_attribute("data-at", "1.0")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    _shot(page, "reader-nojs-375")
    # The author, without JavaScript too: types an edge, marks it best, reads the verdict.
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("coach")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto(live_server.url + f"/studies/{study.slug}/1/edit")
    worst, _best = _worst_and_best(board)
    page.get_by_label("Draw an edge (click the board, or type it)").fill(worst)
    page.get_by_role("button", name="Draw", exact=True).click()
    page.get_by_label("Mark as a best move (the solver checks it)").check()
    page.get_by_role("button", name="Save", exact=True).click()
    # Without JavaScript the author's page does not reload itself (it would throw away what
    # they are typing): they look again until the solver has spoken.
    deadline = time.monotonic() + 60
    while page.locator(".claims-here .verdict-pending").count():
        assert time.monotonic() < deadline, "the claim was never checked"
        time.sleep(1)
        page.get_by_role("link", name="Look again").click()
    expect(page.locator(".claims-here .verdict-refuted")).to_contain_text("is better")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    _shot(page, "author-nojs-375")
