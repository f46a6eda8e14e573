"""A person signs up, signs out and in; a player reports a game; staff review it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from dotsboxes.reports.models import Report
from tests.gamefactory import played_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "plenty-of-boxes-42"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_sign_up_then_sign_out_and_back_in(live_server, page, screenshot):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Sign in").click()
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    screenshot("signup")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", name="ada", exact=True)).to_be_visible()
    expect(page.locator(".rating")).to_have_text("1500?")
    screenshot("profile")
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
    page.get_by_role("link", name="Sign in").click()
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".account-name")).to_have_text("ada")


def test_a_player_reports_a_position_and_staff_resolve_it(live_server, browser):
    game = played_game(width=4, height=3, seed=2)
    get_user_model().objects.create_user("sam", password=PASSWORD, is_staff=True)
    player = browser.new_context(viewport={"width": 375, "height": 800}).new_page()
    player.goto(f"{live_server.url}/reports/new/?game={game.public_id}&ply=9")
    expect(player.locator("svg.board-svg")).to_be_visible()
    width = player.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    player.get_by_label("A rule was applied wrongly").check()
    player.get_by_label("What happened?").fill("My fourth side did not give me the box.")
    ARTIFACTS.mkdir(exist_ok=True)
    player.screenshot(path=str(ARTIFACTS / "report-new-375.png"), full_page=True)
    player.get_by_role("button", name="Send report").click()
    expect(player.get_by_role("heading", name="Thank you")).to_be_visible()
    report = Report.objects.get()
    assert report.ply == 9

    staff = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    staff.goto(live_server.url + "/reports/")
    staff.get_by_label("Username").fill("sam")
    staff.get_by_label("Password").fill(PASSWORD)
    staff.get_by_role("button", name="Sign in").click()
    staff.get_by_role("link", name="A rule was applied wrongly").click()
    expect(staff.get_by_text("after 9 of")).to_be_visible()
    staff.get_by_role("link", name="Next").click()
    expect(staff.get_by_text("after 10 of")).to_be_visible()
    staff.get_by_role("link", name="Back to the reported point").click()
    expect(staff.get_by_text("after 9 of")).to_be_visible()
    staff.screenshot(path=str(ARTIFACTS / "report-detail-1280.png"), full_page=True)
    staff.get_by_label("Resolution note").fill("Replayed it: the rules were right.")
    staff.get_by_role("button", name="Mark resolved").click()
    expect(staff.get_by_text("is resolved")).to_be_visible()
    report.refresh_from_db()
    assert report.status == Report.Status.RESOLVED


def test_the_rating_list_and_a_profile_with_games_fit_a_phone(live_server, browser):
    User = get_user_model()
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    for seed in range(3):
        blue, red = (alice, bob) if seed % 2 else (bob, alice)
        played_game(
            seed=seed,
            mode="online",
            rated=True,
            blue_user=blue,
            red_user=red,
            blue_name=blue.username,
            red_name=red.username,
        )
    page = browser.new_context(viewport={"width": 375, "height": 740}).new_page()
    page.goto(live_server.url + "/accounts/ratings/")
    expect(page.get_by_role("link", name="alice")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.get_by_role("link", name="alice").click()
    expect(page.locator("tbody tr")).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "profile-375.png"), full_page=True)
