"""A person opens the home page and follows the navigation."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_home_page_navigation_reaches_every_section(live_server, page, screenshot):
    page.goto(live_server.url + "/")
    expect(page.get_by_role("heading", name="Dots and Boxes")).to_be_visible()
    screenshot("home")
    nav = page.get_by_role("navigation", name="Main")
    for label in ("Play", "Online", "Learn", "Rules"):
        nav.get_by_role("link", name=label, exact=True).click()
        expect(page.locator("h1")).to_be_visible()
        assert page.locator("h1").inner_text().strip()
        expect(nav.get_by_role("link", name=label, exact=True)).to_have_attribute(
            "aria-current", "page"
        )
        page.get_by_role("link", name="dotsboxes home").click()
        expect(page.get_by_role("heading", name="Dots and Boxes")).to_be_visible()


def test_home_page_fits_a_375px_phone(live_server, browser):
    context = browser.new_context(viewport={"width": 375, "height": 740})
    page = context.new_page()
    page.goto(live_server.url + "/")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    context.close()
