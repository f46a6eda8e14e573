"""A correspondence game in Chromium across a simulated day: the site's clock is moved
forward through its own time source (``CLOCK_OFFSET_FILE``), never by sleeping."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect

from dotsboxes import clock
from tests.browser.conftest import ARTIFACTS
from tests.rooms.live import daphne_servers, server_env, worker_ports

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a long enough passphrase 42"


@pytest.fixture
def site(django_db_setup, django_db_blocker, tmp_path, settings):
    offset = tmp_path / "clock-offset"
    settings.CLOCK_OFFSET_FILE = str(offset)  # clock.advance() here moves the server's clock
    with django_db_blocker.unblock():
        env = server_env(
            tmp_path,
            ROOMS_TICK_SECONDS="0.2",
            NOTIFY_EVERY_SECONDS="0",
            CLOCK_OFFSET_FILE=str(offset),
        )
    with daphne_servers(env, worker_ports(1)[:1]) as (url,):
        yield url


def sign_up(page: Page, site: str, name: str) -> None:
    page.goto(site + "/accounts/signup/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"correspondence-{name}.png"), full_page=True)


def test_a_correspondence_game_across_a_simulated_day(site, browser):
    alice = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    bob = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    sign_up(alice, site, "alice")
    sign_up(bob, site, "bob")

    alice.goto(site + "/rooms/")
    alice.get_by_label("Blue (moves first)").check()
    alice.get_by_label("Width (boxes)").select_option("3")
    alice.get_by_label("Height (boxes)").select_option("3")
    alice.get_by_label("Turn timer").select_option(label="1 day a move")
    alice.get_by_label("Rated game").check()
    alice.get_by_role("button", name="Open the room").click()
    link = alice.get_by_label("Invite link").input_value()
    bob.goto(link)
    bob.get_by_role("button", name="Play this game").click()
    expect(bob.locator("#room")).to_have_attribute("data-me", "red")

    # Alice is to move: her header counts one game, her home page says how long she has.
    alice.goto(site + "/")
    expect(alice.get_by_test_id("your-turn-count")).to_have_text("1")
    expect(alice.locator(".turn-list li")).to_contain_text(
        re.compile(r"against bob.*23\s+hours", re.S)
    )
    alice.goto(link)
    alice.locator(".edge-target[data-edge='a1-b1']").click()
    expect(alice.locator(".seat-red .clock")).to_contain_text("left to move")

    # Bob's turn now, with a notice; the site's clock moves 20 hours on.
    bob.goto(site + "/")
    expect(bob.get_by_test_id("your-turn-count")).to_have_text("1")
    clock.advance(timedelta(hours=20))
    bob.reload()
    expect(bob.locator(".turn-list li")).to_contain_text(re.compile(r"3\s+hours.*left", re.S))
    # At one day a move the warning comes with 6 hours left: the room clock raises it
    # on its next pass (every 0.2 s).
    # The page shows the notices there are when it loads, so look again as Bob would
    # until the clock's pass has run (on a busy machine it can come after the load).
    deadline = time.monotonic() + 10
    while True:
        bob.goto(site + "/notifications/")
        if "running out" in bob.locator(".notices").inner_text() or time.monotonic() > deadline:
            break
        bob.wait_for_timeout(300)
    expect(bob.locator(".notices")).to_contain_text("Time to move is running out: alice vs bob")
    expect(bob.locator(".notices")).to_contain_text("Your turn: alice vs bob")
    shot(bob, "your-turn-1280")
    bob.set_viewport_size({"width": 375, "height": 800})
    bob.goto(site + "/")
    shot(bob, "home-your-turn-375")
    bob.goto(site + "/notifications/")
    shot(bob, "your-turn-375")

    # Alice's profile lists the game under way, with who is to move.
    alice.goto(site + "/accounts/alice/")
    expect(alice.locator(".correspondence-games li")).to_contain_text(
        re.compile(r"against bob.*1 day a move.*the opponent to move", re.S)
    )

    # Four more hours: Bob's day is over.  He has vacation days (14 a year): one is
    # spent, and his deadline moves a day.  Nothing is drawn for him.
    clock.advance(timedelta(hours=4))
    alice.goto(link)
    expect(alice.locator("#room")).to_contain_text(
        "who is on vacation: one more day to move", timeout=10_000
    )
    expect(alice.locator("#room")).not_to_contain_text("wins on time")
    shot(alice, "vacation-room-1280")
    # On his notifications page Bob sees the days left and switches them off.
    bob.goto(site + "/notifications/")
    expect(bob.get_by_test_id("vacation-left")).to_have_text(
        "Vacation days left this year: 13 of 14"
    )
    shot(bob, "vacation-375")
    bob.get_by_label("Use my vacation days when my time to move").uncheck()
    bob.locator("form[action$='/notifications/vacation'] button").click()
    expect(bob.get_by_label("Use my vacation days when my time to move")).not_to_be_checked()

    # A day later his time runs out again: no vacation now, he loses on time.
    clock.advance(timedelta(days=1))
    alice.goto(link)
    expect(alice.locator("#room")).to_contain_text("wins on time", timeout=10_000)
    expect(alice.locator(".edge-target")).to_have_count(0)
    shot(alice, "lost-on-time-1280")
    bob.goto(site + "/")
    expect(bob.get_by_test_id("your-turn-count")).to_have_text("0")

    # The rated result is on Alice's profile: a chart with its correspondence line, and
    # the game no longer under way.  The page fits a phone.
    alice.goto(site + "/accounts/alice/")
    expect(alice.locator(".correspondence-games")).to_have_count(0)
    chart = alice.get_by_role("img", name="Rating history")
    expect(chart).to_be_visible()
    expect(chart.locator('[data-series="correspondence"] circle')).to_have_count(2)  # before, after
    expect(alice.locator(".chart-legend")).to_contain_text("Correspondence (days a move):")
    shot(alice, "profile-chart-1280")
    alice.set_viewport_size({"width": 375, "height": 800})
    alice.reload()
    assert alice.evaluate("document.documentElement.scrollWidth") <= 375
    shot(alice, "profile-chart-375")
