"""Account settings in Chromium: a forgotten password reset from its mail, an address
confirmed, the data archive downloaded and one of its records imported again, an
account closed and its games shown under the neutral name."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from playwright.sync_api import expect

from dotsboxes.accounts.models import Profile
from dotsboxes.games.models import Game
from dotsboxes.rooms.models import Room
from tests.gamefactory import played_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "plenty-of-boxes-42"
NEW_PASSWORD = "chains-and-loops-77"
SHOTS = Path("/work/lead/shots")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(autouse=True)
def _site(settings, live_server):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = live_server.url
    settings.ROOMS_TICKER = "off"
    settings.ANALYSIS_AUTO = False


def shot(page, name: str) -> None:
    """Into test-artifacts/ always; into the lead's folder too where it exists."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def account(name: str, *, email: str = "", confirmed: bool = False):
    user = get_user_model().objects.create_user(name, password=PASSWORD, email=email)
    Profile.objects.create(user=user, email_verified=confirmed)
    return user


def sign_in(page, url: str, name: str, password: str = PASSWORD) -> None:
    page.goto(url + "/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".account-name")).to_have_text(name)


def link_in(message) -> str:
    return re.search(r"(http://\S+)", message.body)[1]


def test_a_forgotten_password_is_reset_from_the_link_in_the_mail(live_server, page):
    account("ada", email="ada@example.com", confirmed=True)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Email").fill("ADA@example.com")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_test_id("reset-sent")).to_be_visible()
    (message,) = mail.outbox
    assert message.to == ["ada@example.com"] and "reset" in message.subject.lower()
    page.goto(link_in(message))
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password confirmation").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Set password").click()
    expect(page.get_by_test_id("reset-complete")).to_be_visible()
    sign_in(page, live_server.url, "ada", NEW_PASSWORD)
    # The link was for one use.
    page.goto(link_in(message))
    expect(page.get_by_text("expired or was already used")).to_be_visible()


def test_an_address_is_confirmed_from_its_mail_and_the_page_fits_a_phone(live_server, browser):
    account("ada")
    wide = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    sign_in(wide, live_server.url, "ada")
    wide.goto(live_server.url + "/accounts/ada/")
    wide.get_by_test_id("settings-link").click()
    wide.get_by_label("New email address").fill("ada@example.com")
    wide.locator("form[action$='/settings/email']").get_by_label("Your password").fill(PASSWORD)
    wide.get_by_role("button", name="Change address").click()
    expect(wide.get_by_test_id("email-state")).to_contain_text("not confirmed yet")
    (message,) = mail.outbox
    assert message.to == ["ada@example.com"]
    # The link opens in another browser (a phone's mail app): it shows a button.
    phone = browser.new_context(viewport={"width": 375, "height": 800}).new_page()
    phone.goto(link_in(message))
    phone.get_by_role("button", name="Confirm address").click()
    expect(phone.get_by_test_id("email-confirmed")).to_contain_text("ada@example.com")
    wide.reload()
    expect(wide.get_by_test_id("email-state")).to_contain_text("confirmed. Notices")
    shot(wide, "issue26-settings-1280")
    sign_in(phone, live_server.url, "ada")
    phone.goto(live_server.url + "/accounts/settings/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    shot(phone, "issue26-settings-375")
    phone.goto(live_server.url + "/accounts/settings/close")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    shot(phone, "issue26-close-375")


def test_the_data_archive_downloads_and_a_record_from_it_imports_again(live_server, page):
    ada, bob = account("ada"), account("bob")
    game = played_game(
        width=3, height=2, seed=5, mode=Game.Mode.ONLINE, blue_user=ada, red_user=bob
    )
    game.blue_name, game.red_name = "ada", "bob"
    game.save()
    sign_in(page, live_server.url, "ada")
    page.goto(live_server.url + "/accounts/settings/")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download my data").click()
    archive = zipfile.ZipFile(io.BytesIO(Path(download.value.path()).read_bytes()))
    assert "dotsboxes-data.json" in archive.namelist()
    record = archive.read(f"games/{game.public_id}.txt").decode()
    page.goto(live_server.url + "/play/import/")
    page.get_by_label("Game record").fill(record)
    page.get_by_label("Replay it").check()
    page.get_by_role("button", name="Import").click()
    expect(page).to_have_url(re.compile(r"/replay/"))
    imported = Game.objects.exclude(pk=game.pk).get()
    assert [m.edge for m in imported.moves.order_by("ply")] == [
        m.edge for m in game.moves.order_by("ply")
    ]
    assert (imported.blue_name, imported.red_name) == ("ada", "bob")


def test_a_closed_accounts_games_show_the_neutral_name(live_server, browser):
    ada, bob = account("ada"), account("bob")
    game = played_game(
        width=2, height=2, seed=1, mode=Game.Mode.ONLINE, blue_user=ada, red_user=bob
    )
    game.blue_name, game.red_name = "ada", "bob"
    game.save()
    Room.objects.create(game=game)
    page = browser.new_context(viewport={"width": 375, "height": 800}).new_page()
    sign_in(page, live_server.url, "ada")
    page.goto(live_server.url + "/accounts/settings/")
    page.get_by_role("link", name="Close my account…").click()
    page.get_by_label("Your password").fill("not my password")
    page.get_by_role("button", name="Close my account for good").click()
    expect(page.get_by_text("That is not your current password.")).to_be_visible()
    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_role("button", name="Close my account for good").click()
    expect(page.get_by_test_id("account-closed")).to_be_visible()
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
    # Bob's profile lists the game against "Closed account"; Ada's profile is gone.
    page.goto(live_server.url + "/accounts/bob/")
    games = page.locator("table.data")
    expect(games).to_contain_text("against Closed account")
    expect(games).not_to_contain_text("ada")
    shot(page, "issue26-closed-opponent-375")
    assert page.goto(live_server.url + "/accounts/ada/").status == 404
    page.goto(live_server.url + game.get_absolute_url())
    expect(page.locator("main")).to_contain_text("Closed account")
    expect(page.locator("main")).not_to_contain_text("ada")
