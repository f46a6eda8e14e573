"""A player blocks another from their profile; the blocked player's challenge and seat
are refused.  Staff mute a player's chat from a chat report.  (Chromium, phone width.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from dotsboxes.api.services import bot_account_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "plenty-of-boxes-42"
SHOTS = Path("/work/lead/shots")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def shot(page: Page, name: str) -> None:
    for folder in (ARTIFACTS, SHOTS):
        if folder == SHOTS and not folder.is_dir():
            continue
        folder.mkdir(exist_ok=True)
        page.screenshot(path=str(folder / f"issue26-{name}.png"), full_page=True)


def signed_in(browser: Browser, url: str, name: str, width: int = 375) -> Page:
    page = browser.new_context(viewport={"width": width, "height": 800}).new_page()
    page.goto(url + "/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".account-name")).to_have_text(name)
    return page


def fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def test_a_blocked_player_sees_their_challenge_refused(live_server, browser):
    users = get_user_model().objects
    bot = users.create_user("botty", password=PASSWORD)
    bot_account_create(user=bot)
    users.create_user("alice", password=PASSWORD)
    url = live_server.url

    owner = signed_in(browser, url, "botty")
    owner.goto(url + "/accounts/alice/")
    owner.get_by_role("button", name="Block this player").click()
    expect(owner.locator(".messages")).to_contain_text("You blocked alice")
    expect(owner.get_by_role("button", name="Unblock")).to_be_visible()
    fits(owner)
    shot(owner, "block-375")

    alice = signed_in(browser, url, "alice")
    alice.goto(url + "/accounts/botty/")
    alice.get_by_role("button", name="Challenge", exact=True).click()
    expect(alice.get_by_text("This player does not accept games with you.")).to_be_visible()
    fits(alice)
    shot(alice, "challenge-refused-375")

    # Unblocked from the list of blocked players, the challenge goes through.
    owner.goto(url + "/moderation/blocked/")
    owner.get_by_role("button", name="Unblock").click()
    expect(owner.get_by_text("You have not blocked anyone.")).to_be_visible()
    alice.goto(url + "/accounts/botty/")
    alice.get_by_role("button", name="Challenge", exact=True).click()
    expect(alice.get_by_text("This player does not accept games with you.")).to_have_count(0)
    expect(alice.get_by_role("button", name="Cancel the challenge")).to_be_visible()


def test_a_blocked_player_cannot_sit_down_and_the_lobby_hides_the_room(live_server, browser):
    users = get_user_model().objects
    users.create_user("alice", password=PASSWORD)
    users.create_user("bob", password=PASSWORD)
    url = live_server.url
    alice = signed_in(browser, url, "alice")
    alice.goto(url + "/accounts/bob/")
    alice.get_by_role("button", name="Block this player").click()
    alice.goto(url + "/rooms/")
    alice.get_by_role("button", name="Open the room").click()
    expect(alice.locator("#room")).to_have_attribute("data-me", re.compile("blue|red"))
    room_url = alice.url

    bob = signed_in(browser, url, "bob")
    bob.goto(url + "/rooms/")
    expect(bob.locator(f'.room-list a[href="{room_url.removeprefix(url)}"]')).to_have_count(0)
    bob.goto(room_url)
    bob.get_by_role("button", name="Play this game").click()
    expect(bob.get_by_text("This player does not accept games with you.")).to_be_visible()
    fits(bob)
    shot(bob, "join-refused-375")
