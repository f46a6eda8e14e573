"""A player blocks another from their profile; the blocked player's challenge and seat
are refused.  Staff mute a player's chat from a chat report.  (Chromium, phone width.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page, expect

from dotsboxes.api.services import bot_account_create
from tests.moderation.synthetic import make_population

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


def test_a_reported_chat_line_reaches_staff_who_mute_the_player(live_server, browser):
    users = get_user_model().objects
    for name in ("alice", "bob"):
        users.create_user(name, password=PASSWORD)
    users.create_user("sam", password=PASSWORD, is_staff=True)
    url = live_server.url
    alice = signed_in(browser, url, "alice")
    alice.goto(url + "/rooms/")
    alice.get_by_role("button", name="Open the room").click()
    expect(alice.locator("#room")).to_have_attribute("data-me", re.compile("blue|red"))
    room_url = alice.url
    bob = signed_in(browser, url, "bob")
    bob.goto(room_url)
    bob.get_by_role("button", name="Play this game").click()
    bob.get_by_label("Chat message").fill("you are a cheat")
    with bob.expect_response(lambda r: r.url.endswith("/chat")):
        bob.get_by_role("button", name="Send").click()
    alice.reload()  # this test server has no sockets: the page shows what is stored
    line = alice.locator("#room-chat li", has_text="you are a cheat")
    expect(line).to_be_visible()
    line.get_by_role("link", name="Report this line").click()
    alice.get_by_label("What is wrong with this line? (optional)").fill("insult")
    fits(alice)
    alice.get_by_role("button", name="Send the report").click()
    expect(alice.locator(".messages")).to_contain_text("Thank you")

    staff = signed_in(browser, url, "sam")
    staff.goto(url + "/reports/")
    staff.get_by_role("link", name=re.compile(r"^Chat report \d+$")).click()
    expect(staff.locator(".chat-log mark")).to_have_text("you are a cheat")
    staff.get_by_label("Mute chat for").select_option("24")
    staff.get_by_label("Reason (kept for staff)").fill("insulted the opponent")
    staff.get_by_role("button", name="Mute their chat").click()
    expect(staff.locator(".messages")).to_contain_text("muted until")
    fits(staff)
    shot(staff, "chat-report-staff-375")

    bob.get_by_label("Chat message").fill("sorry")
    bob.get_by_role("button", name="Send").click()
    expect(bob.get_by_text("Staff have muted your chat until")).to_be_visible()
    fits(bob)
    shot(bob, "muted-375")


def test_staff_see_the_flagged_engine_user_and_mark_the_account(live_server, browser):
    _people, cheat = make_population()
    for name in ("sam",):
        get_user_model().objects.create_user(name, password=PASSWORD, is_staff=True)
    cheat.set_password(PASSWORD)
    cheat.save()
    url = live_server.url
    staff = signed_in(browser, url, "sam")
    staff.goto(url + "/reports/")
    staff.get_by_role("link", name="Fair play: flagged accounts").click()
    staff.get_by_role("link", name="cheat").click()
    expect(staff.get_by_text("far outside their rating's play")).to_be_visible()
    fits(staff)
    shot(staff, "fairplay-player-375")
    staff.get_by_label("Account marked").check()
    staff.get_by_label("Why (kept in the log)").fill("every real choice matched over 12 games")
    staff.get_by_role("button", name="Record the decision").click()
    expect(staff.locator(".decisions")).to_contain_text("every real choice matched")
    player = signed_in(browser, url, "cheat")
    player.goto(url + "/accounts/cheat/")
    expect(player.get_by_text("Marked for a fair-play violation.")).to_be_visible()
    fits(player)
    shot(player, "marked-profile-375")
