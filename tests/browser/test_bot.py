"""A person in Chromium challenges a bot from its profile and plays it to the end; the bot
is ``python -m dotsboxes.bot`` driving our own engine over the bot API (a real subprocess)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from playwright.sync_api import Page, expect

from tests.api.test_bridge_live import manage_shell
from tests.browser.conftest import ARTIFACTS
from tests.rooms.live import ROOT, asgi_servers, server_env, worker_ports

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a long enough passphrase 42"
MAKE_BOT = """
from django.contrib.auth import get_user_model
from dotsboxes.api import services, tokens
user = get_user_model().objects.create_user("alphabot", password="a long passphrase 42")
services.bot_account_create(user=user)
print("TOKEN", tokens.token_create(user=user)[1])
"""


@pytest.fixture
def site_and_bot(django_db_setup, django_db_blocker, tmp_path):
    with django_db_blocker.unblock():
        env = server_env(tmp_path, API_POLL_SECONDS="0.1", ROOMS_TICK_SECONDS="0.2")
    token = next(
        line.split()[1] for line in manage_shell(env, MAKE_BOT).splitlines() if line[:6] == "TOKEN "
    )
    with asgi_servers(env, worker_ports(1)[:1], ["uvicorn"]) as (url,):
        log = open(tmp_path / "bridge.log", "w")  # noqa: SIM115
        engine = f"{sys.executable} -m dotsboxes.engine"
        command = [sys.executable, "-m", "dotsboxes.bot", "--url", url, "--token", token]
        command += ["--engine", engine, "--go", "level master movetime 200", "--games", "1", "-v"]
        bridge = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            yield url, bridge
        finally:
            if bridge.poll() is None:
                bridge.kill()
            log.close()


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"bot-{name}.png"), full_page=True)


def test_a_person_challenges_the_bot_from_its_profile_and_plays_it_to_the_end(
    site_and_bot, browser
):
    site, bridge = site_and_bot
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(site + "/accounts/signup/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", name="alice", exact=True)).to_be_visible()

    page.goto(site + "/accounts/alphabot/")
    expect(page.locator("h1 .bot-badge")).to_have_text("BOT")
    page.get_by_label("Width (boxes)").select_option("2")
    page.get_by_label("Height (boxes)").select_option("2")
    page.get_by_label("Blue (moves first)").check()
    page.get_by_role("button", name="Challenge", exact=True).click()
    # The waiting page, then (once the bridge accepted) the room itself.
    expect(page.locator("#room")).to_have_attribute("data-me", "blue", timeout=20_000)
    expect(page.locator(".seat-red .seat-name")).to_contain_text("alphabot")
    expect(page.locator(".seat-red .bot-badge")).to_have_text("BOT")
    shot(page, "room")

    for _ in range(12):
        # Wait for Alice's turn, or the end (the bot's answers come through the push).
        expect(page.locator('#room-board:not([data-turn="red"])')).to_have_count(1, timeout=20_000)
        if not page.locator("#room-board").get_attribute("data-turn"):
            break
        target = page.locator(".edge-target").first
        edge = target.get_attribute("data-edge")
        target.click()
        expect(page.locator(f".edge-target[data-edge='{edge}']")).to_have_count(0)
    expect(page.locator("#room-status")).to_contain_text(re.compile(r"wins|tie"), timeout=20_000)
    expect(page.locator("line.edge.drawn")).to_have_count(12)
    shot(page, "finished")
    assert bridge.wait(timeout=30) == 0
    page.goto(site + "/accounts/alice/")
    expect(page.locator("table.data")).to_contain_text("against alphabot BOT")


def test_the_bot_owner_makes_a_token_sees_it_once_and_revokes_it(site_and_bot, browser):
    site, _bridge = site_and_bot
    page = browser.new_context(viewport={"width": 375, "height": 800}).new_page()
    page.goto(site + "/accounts/login/")
    page.get_by_label("Username").fill("alphabot")
    page.get_by_label("Password").fill("a long passphrase 42")
    page.get_by_role("button", name="Sign in").click()
    page.goto(site + "/accounts/alphabot/")
    expect(page.locator(".tokens li")).to_have_count(1)  # the bridge's token
    page.get_by_label("Token name (for you)").fill("laptop")
    page.get_by_role("button", name="Create a token").click()
    token = page.locator("#new-token").inner_text()
    assert token.startswith("dbx_")
    expect(page.locator(".tokens li")).to_have_count(2)
    shot(page, "tokens-375")
    page.reload()
    expect(page.locator("#new-token")).to_have_count(0)  # shown once
    page.locator(".tokens li", has_text="laptop").get_by_role("button", name="Revoke").click()
    expect(page.locator(".tokens li")).to_have_count(1)
