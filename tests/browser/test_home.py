"""A person opens the home page, follows the navigation and the sections, on a phone too."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

# Every page a visitor reaches from the navigation, the home page or the play form
# without a game of their own: each must fit a 375 px phone without sideways scrolling.
TOP_LEVEL_PAGES = [
    ("home", ""),
    ("games:new", ""),
    ("games:new", "?mode=local"),
    ("games:mine", ""),
    ("games:import", ""),
    ("rooms:lobby", ""),
    ("guide:index", ""),
    ("guide:rules", ""),
    ("guide:strategy", ""),
    ("guide:studies", ""),
    ("guide:practice", ""),
    ("accounts:login", ""),
    ("accounts:signup", ""),
    ("accounts:ratings", ""),
]


def test_home_page_navigation_reaches_every_section(live_server, page, screenshot):
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(live_server.url + "/")
    expect(page.get_by_role("heading", name="Dots and Boxes")).to_be_visible()
    # htmx is loaded, and from this site: no request leaves it (no CDN).
    assert page.evaluate("typeof window.htmx") == "object"
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
    assert requested and all(url.startswith(live_server.url) for url in requested), requested


@pytest.mark.parametrize(
    ("card", "heading"),
    [
        ("Play the computer", "New game"),
        ("Play on one device", "New game"),
        ("Online rooms", "Online rooms"),
        ("Learn", "Learn Dots and Boxes"),
        ("Rules", "The rules of Dots and Boxes"),
    ],
)
def test_each_section_on_the_home_page_opens_its_page(live_server, page, card, heading):
    page.goto(live_server.url + "/")
    page.locator("main").get_by_role("link", name=card, exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    if card.startswith("Play"):
        # The two play cards open the same form, preset to the right opponent.
        local = page.get_by_role("radio", name=re.compile("Two players"))
        computer = page.get_by_role("radio", name=re.compile("Against the computer"))
        expect(local if card == "Play on one device" else computer).to_be_checked()


def test_every_top_level_page_fits_a_375px_phone(live_server, page, screenshot):
    page.set_viewport_size({"width": 375, "height": 740})
    too_wide = {}
    for name, query in TOP_LEVEL_PAGES:
        url = reverse(name) + query
        page.goto(live_server.url + url)
        expect(page.locator("h1")).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 375:
            too_wide[url] = width
        screenshot("375px-" + (name.replace(":", "-") + query.replace("?", "-").replace("=", "-")))
    assert too_wide == {}
