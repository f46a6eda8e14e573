"""Issue 23.10: the Content-Security-Policy, in Chromium.

Main pages work under the policy with no violation reported, and a script injected into
the page (as an XSS would) does not run.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_play import new_game, wait_for_my_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


def violations(page: Page) -> list[str]:
    return page.evaluate("window.__violations || []")


@pytest.fixture
def watched(page: Page):
    console: list[str] = []
    page.on(
        "console",
        lambda m: console.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.add_init_script(LISTEN)
    yield page, console


def test_the_main_pages_work_under_the_policy_and_report_no_violation(live_server, watched):
    page, console = watched
    response = page.goto(live_server.url + "/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-eval" not in policy
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    # Play a move against the computer (htmx posts, the board's script, the poll).
    new_game(page, live_server.url, mode="computer", size="2x2")
    wait_for_my_turn(page)
    slot = page.locator(".slot").first
    edge = slot.get_attribute("data-edge")
    slot.click()
    expect(page.locator(f'.edge.by-blue[data-edge="{edge}"]')).to_have_count(1)
    wait_for_my_turn(page)
    assert violations(page) == []
    # The analysis board, the guide, the rooms' lobby and a room.
    for path in ("/analysis/?size=3x3", "/learn/", "/learn/rules/", "/rooms/"):
        page.goto(live_server.url + path)
        page.wait_for_load_state("load")
        assert violations(page) == [], path
    page.get_by_label("Your display name").fill("Alice")
    page.get_by_role("button", name="Open the room").click()
    expect(page.locator("#room")).to_be_visible()
    page.wait_for_load_state("load")
    assert violations(page) == []
    assert console == []


def test_an_injected_inline_script_does_not_run(live_server, watched):
    page, _console = watched
    page.goto(live_server.url + "/learn/")
    page.evaluate(
        """() => {
        const s = document.createElement("script");
        s.textContent = "window.__injected = 1";
        document.body.appendChild(s);
        const div = document.createElement("div");
        div.innerHTML = '<img src="x" onerror="window.__injected = 2">';
        document.body.appendChild(div);
    }"""
    )
    page.wait_for_timeout(300)
    assert page.evaluate("window.__injected") is None
    assert any(v.startswith("script-src") for v in violations(page))
