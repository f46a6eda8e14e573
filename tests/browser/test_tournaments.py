"""Tournaments in Chromium.  A Swiss: six players sign up, join, play three rounds in
rooms, and a spectator's page shows the standings change as each game ends (pushed,
never reloaded).  Screenshots of the tournament page at 1280 and 375 px."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.test_correspondence import sign_up
from tests.rooms.live import daphne_servers, server_env, worker_ports

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NAMES = ("ann", "ben", "cat", "dan", "eve", "fay")


@pytest.fixture
def site(django_db_setup, django_db_blocker, tmp_path):
    with django_db_blocker.unblock():
        env = server_env(tmp_path, ROOMS_TICK_SECONDS="0.2")
    with daphne_servers(env, worker_ports(1)[:1]) as (url,):
        yield url


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"tournament-{name}.png"), full_page=True)


def points(page: Page) -> list[int]:
    return [int(x) for x in page.get_by_test_id("points").all_inner_texts()]


def open_my_game(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.get_by_test_id("playing").get_by_role("link", name=re.compile(rf"\b{name}\b")).click()
    expect(page.locator("#conn")).to_have_text("Connected")


def play_out(pages: list[Page]) -> None:
    """Both players draw edges in turn until the last box is taken."""
    by_side = {p.locator("#room").get_attribute("data-me"): p for p in pages}
    assert set(by_side) == {"blue", "red"}
    watcher = pages[0]
    while turn := watcher.locator("#room-board").get_attribute("data-turn"):
        mover = by_side[turn]
        before = int(mover.locator("#room-sync").get_attribute("data-version"))
        mover.locator(".edge-target").first.click()
        for page in pages:
            expect(page.locator("#room-sync")).to_have_attribute("data-version", str(before + 1))
    for page in pages:
        expect(page.locator("#room-status")).to_contain_text(re.compile(r"wins|tie"))


def draw_then_resign(pages: list[Page]) -> None:
    """Blue draws one edge, then Red resigns (accepting the confirmation)."""
    by_side = {p.locator("#room").get_attribute("data-me"): p for p in pages}
    red = by_side["red"]
    before = int(red.locator("#room-sync").get_attribute("data-version"))
    by_side["blue"].locator(".edge-target").first.click()
    # Resign on the position after that edge (a form sent with the version before it
    # would be refused as stale).
    expect(red.locator("#room-sync")).to_have_attribute("data-version", str(before + 1))
    expect(red.get_by_role("button", name="Resign")).to_be_visible()
    red.once("dialog", lambda dialog: dialog.accept())
    red.get_by_role("button", name="Resign").click()
    expect(red.locator("#room-status")).to_contain_text("wins")


def play_round(pages: dict[str, Page], url: str, *, played_out: int) -> None:
    """Everyone opens their game from the tournament page; the first ``played_out``
    games are played edge by edge to the end, in the others Red resigns."""
    games: dict[str, list[Page]] = {}
    for name, page in pages.items():
        open_my_game(page, url, name)
        games.setdefault(page.url, []).append(page)
    assert len(games) == len(pages) // 2, "everyone has a game, nobody two"
    for n, pair in enumerate(games.values()):
        if n < played_out:
            play_out(pair)
        else:
            draw_then_resign(pair)


def test_a_three_round_swiss_with_six_players_played_in_rooms(site, browser):
    pages = {}
    for name in NAMES:
        pages[name] = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        sign_up(pages[name], site, name)
    spectator = browser.new_context(viewport={"width": 375, "height": 800}).new_page()
    ann = pages["ann"]

    ann.goto(site + "/tournaments/")
    ann.get_by_role("textbox", name="Name:").fill("Browser Swiss")
    ann.get_by_label("Swiss: a fixed number of rounds").check()
    ann.get_by_label("Width (boxes)").select_option("2")
    ann.get_by_label("Height (boxes)").select_option("2")
    ann.get_by_label("Time control").select_option(label="60 seconds a move")
    ann.get_by_label("Swiss: rounds").fill("3")
    ann.get_by_role("button", name="Create the tournament").click()
    expect(ann.get_by_role("heading", name="Browser Swiss")).to_be_visible()
    url = ann.url
    spectator.goto(url)
    expect(spectator.get_by_text("Nobody has joined yet.")).to_be_visible()

    for name in NAMES:
        page = pages[name]
        page.goto(url)
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.get_by_text("You are in.")).to_be_visible()
    # The spectator's page was never reloaded: every join arrived as a push.
    expect(spectator.get_by_test_id("points")).to_have_count(6)
    shot(spectator, "upcoming-375")

    ann.goto(url)
    ann.get_by_role("button", name="Start now").click()
    expect(spectator.locator(".t-status")).to_contain_text("Round 1 of 3")
    expect(spectator.get_by_test_id("playing").get_by_role("link")).to_have_count(3)
    expect(ann.get_by_test_id("playing").get_by_role("link")).to_have_count(3)
    shot(ann, "round-1-1280")  # running: standings, games in progress, the countdown

    # Round one: one game played edge by edge to the last box, Red resigns the others.
    play_round(pages, url, played_out=1)
    expect(spectator.locator(".t-status")).to_contain_text("Round 2 of 3")
    assert sum(points(spectator)) == 6  # three games, two points each (a tie gives 1 + 1)
    shot(spectator, "round-2-375")
    play_round(pages, url, played_out=0)
    expect(spectator.locator(".t-status")).to_contain_text("Round 3 of 3")
    assert sum(points(spectator)) == 12
    play_round(pages, url, played_out=0)
    expect(spectator.locator(".t-status")).to_contain_text("The tournament is over.")
    assert sum(points(spectator)) == 18
    assert points(spectator) == sorted(points(spectator), reverse=True)
    expect(spectator.get_by_text("No game is being played.")).to_be_visible()
    shot(spectator, "finished-375")
    # Three rounds' standings fit a phone: no column scrolled out of sight.
    table = spectator.locator("table.standings")
    assert table.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth")
    ann.goto(url)
    expect(ann.get_by_test_id("standings")).to_contain_text("Buchholz")
    shot(ann, "finished-1280")
    # Nobody met anyone twice: nine different pairs in the results.
    results = ann.locator("#t-live section").last.get_by_role("link").all_inner_texts()
    assert len(results) == 9
    assert len({frozenset(r.split(" vs ")) for r in results}) == 9
    rows = ann.locator("table.standings tbody tr")
    expect(rows).to_have_count(6)
    for i in range(6):
        expect(rows.nth(i).locator(".results")).to_have_text(re.compile(r"^[WDL]{3}$"))


@pytest.fixture
def timed_site(django_db_setup, django_db_blocker, tmp_path, settings):
    """The site with a clock the test moves (``CLOCK_OFFSET_FILE``, shared with the server)."""
    offset = tmp_path / "clock-offset"
    settings.CLOCK_OFFSET_FILE = str(offset)
    with django_db_blocker.unblock():
        env = server_env(tmp_path, ROOMS_TICK_SECONDS="0.2", CLOCK_OFFSET_FILE=str(offset))
    with daphne_servers(env, worker_ports(1)[:1]) as (url,):
        yield url


def test_a_small_arena_pairs_at_once_and_ends_when_the_clock_says(timed_site, browser):
    from datetime import timedelta

    from dotsboxes import clock

    site = timed_site
    ann, ben = (browser.new_context().new_page() for _ in range(2))
    sign_up(ann, site, "ann")
    sign_up(ben, site, "ben")
    ann.goto(site + "/tournaments/")
    ann.get_by_role("textbox", name="Name:").fill("Five-minute arena")
    ann.get_by_label("Arena: play as many games").check()
    ann.get_by_label("Width (boxes)").select_option("2")
    ann.get_by_label("Height (boxes)").select_option("2")
    ann.get_by_label("Starts in (minutes)").fill("0")
    ann.get_by_label("Arena: duration (minutes)").fill("5")
    ann.get_by_role("button", name="Create the tournament").click()
    url = ann.url
    # The room clock starts it on its next pass; the page hears it.
    expect(ann.locator(".t-status")).to_contain_text("The arena is on", timeout=10_000)
    ann.get_by_role("button", name="Join", exact=True).click()
    ben.goto(url)
    ben.get_by_role("button", name="Join", exact=True).click()
    # Paired as soon as both are free.
    expect(ann.get_by_test_id("playing").get_by_role("link")).to_have_count(1)
    open_my_game(ann, url, "ann")
    open_my_game(ben, url, "ben")
    draw_then_resign([ann, ben])
    # Only two players: they are paired again at once.
    ann.goto(url)
    expect(ann.get_by_test_id("playing").get_by_role("link")).to_have_count(1)
    assert sorted(points(ann)) == [0, 2]
    # Six minutes later the arena is over (and Blue's minute too: the room clock plays
    # that turn, as in any live room); the game in progress still counts.
    open_my_game(ann, url, "ann")
    open_my_game(ben, url, "ben")
    clock.advance(timedelta(minutes=6))
    red = next(p for p in (ann, ben) if p.locator("#room").get_attribute("data-me") == "red")
    expect(red.locator("#room-board")).to_have_attribute("data-turn", "red", timeout=10_000)
    red.once("dialog", lambda dialog: dialog.accept())
    red.get_by_role("button", name="Resign").click()
    expect(red.locator("#room-status")).to_contain_text("wins")
    ann.goto(url)
    expect(ann.locator(".t-status")).to_contain_text("The tournament is over.")
    expect(ann.get_by_text("No game is being played.")).to_be_visible()
    assert sorted(points(ann)) in ([0, 4], [2, 2])
    shot(ann, "arena-finished-1280")
    ann.set_viewport_size({"width": 375, "height": 800})
    shot(ann, "arena-finished-375")
