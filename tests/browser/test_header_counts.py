"""The header's counts (games where it is your turn, new notices) in a real page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.rooms.conftest import act, join, open_room

pytestmark = pytest.mark.browser
PASSWORD = "a long enough passphrase 42"


def test_the_header_counts_are_labelled_and_update_while_the_page_is_open(
    live_server, page, settings
):
    # Issue 23: "Your turn 1 1", two unlabelled numbers that never changed on an open page.
    settings.HEADER_POLL_SECONDS = 1
    users = get_user_model().objects
    alice_user = users.create_user("alice", password=PASSWORD)
    bob_user = users.create_user("bob", password=PASSWORD)
    alice, bob = Client(), Client()
    alice.force_login(alice_user)
    bob.force_login(bob_user)
    room = open_room(alice, timer=86400, width=2, height=2)  # a correspondence game
    join(bob, room)

    page.set_viewport_size({"width": 375, "height": 740})
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("bob")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto(live_server.url + "/")
    header = page.locator("#header-counts")
    expect(header.get_by_test_id("your-turn-count")).to_have_text("0")
    expect(header).not_to_contain_text("Notices")

    act(alice, room, "move", edge="a1-b1")  # bob's turn, and a notice: the open page learns it
    expect(header.get_by_test_id("your-turn-count")).to_have_text("1", timeout=10_000)
    expect(header.get_by_test_id("unread-notices")).to_have_text("1")
    expect(header).to_have_text("Your turn 1 Notices 1")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "issue23-header-counts-375.png"))

    # Bob moves in that game: it is no longer his turn, and the notice no longer applies.
    page.goto(live_server.url + f"/rooms/{room.game.public_id}/")
    page.locator(".edge-target[data-edge='b1-c1']").click()
    page.goto(live_server.url + "/")
    expect(header.get_by_test_id("your-turn-count")).to_have_text("0")
    expect(header).not_to_contain_text("Notices")
