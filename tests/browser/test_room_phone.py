"""The room page fits a 375 px phone: no sideways scrolling, for players and spectators."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_rooms import draw, open_room, shot, site, take_seat  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 375, "height": 740}

OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll("body *")]
    .filter(el => el.getBoundingClientRect().right > width + 0.5)
    .map(el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
         (el.className && el.className.baseVal === undefined ? "." + el.className : ""));
  return {scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 12)};
}"""


def fits(page: Page) -> None:
    measured = page.evaluate(OVERFLOW)
    assert measured["scroll"] <= measured["width"] == 375, measured


def test_a_room_on_a_375_px_phone_has_no_sideways_scroll(site, browser):  # noqa: F811
    host, guest, watcher = (browser.new_context(viewport=PHONE).new_page() for _ in range(3))
    link = open_room(host, site, name="Alexandrina-Longname", size="5")
    fits(host)  # waiting for an opponent: the invite link and its copy button
    take_seat(guest, link, "Bartholomew-Longname")
    watcher.goto(link)
    expect(watcher.locator("#room")).to_have_attribute("data-me", "spectator")
    draw(host, "a1-b1", guest, watcher)
    for page in (host, guest, watcher):
        expect(page.locator("#conn")).to_have_text("Connected")
        fits(page)
    word = "https://example.org/" + "a-long-unbroken-link-" * 6
    host.get_by_label("Chat message").fill(word)
    host.get_by_role("button", name="Send", exact=True).click()
    expect(watcher.locator("#room-chat")).to_contain_text("a-long-unbroken-link")
    for page in (host, guest, watcher):
        fits(page)
    guest.get_by_role("button", name="Offer a draw").click()
    expect(host.locator(".offer-answer")).to_be_visible()
    fits(host)
    shot(host, "phone-375-host")
    shot(watcher, "phone-375-spectator")


@pytest.mark.parametrize("size", ["9", "1"])
def test_a_timed_room_of_any_size_fits_a_375_px_phone(site, browser, size):  # noqa: F811
    host, guest = (browser.new_context(viewport=PHONE).new_page() for _ in range(2))
    host.goto(site + "/rooms/")
    fits(host)  # the lobby and its form
    host.get_by_label("Your display name").fill("Wilhelmina")
    host.get_by_label("Blue (moves first)").check()
    host.get_by_label("Width (boxes)").select_option(size)
    host.get_by_label("Height (boxes)").select_option(size)
    host.get_by_label("Turn timer").select_option(index=1)
    host.get_by_role("button", name="Open the room").click()
    expect(host.locator("#conn")).to_have_text("Connected")
    fits(host)
    take_seat(guest, host.get_by_label("Invite link").input_value(), "Maximilian")
    for page in (host, guest):
        fits(page)
    if size == "1":  # play it out: the result, the rematch offer and its answer
        draw(host, "a1-b1", guest)
        draw(guest, "a2-b2", host)
        draw(host, "a1-a2", guest)
        draw(guest, "b1-b2", host)
        expect(host.locator("#room-status")).to_contain_text("wins")
        guest.get_by_role("button", name="Offer a rematch").click()
        expect(host.locator(".offer-answer")).to_contain_text("offers a rematch")
        for page in (host, guest):
            fits(page)
    shot(guest, f"phone-375-timed-{size}")
