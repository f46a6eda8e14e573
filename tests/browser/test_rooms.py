"""Online rooms in real Chromium: two players, a spectator, a live Daphne server."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS
from tests.rooms.live import daphne_servers, server_env, worker_ports

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
AWAY_SECONDS = 4


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker, tmp_path_factory):
    """One Daphne process (WebSockets and all) on this test run's database."""
    with django_db_blocker.unblock():
        env = server_env(
            tmp_path_factory.mktemp("rooms-live"),
            ROOMS_AWAY_SECONDS=str(AWAY_SECONDS),
            ROOMS_TICK_SECONDS="0.2",
        )
    with daphne_servers(env, worker_ports(1)[:1]) as (url,):
        yield url


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"rooms-{name}.png"), full_page=True)


def open_room(page: Page, site: str, name: str = "Alice", size: str = "2", timer: str = "0") -> str:
    page.goto(site + "/rooms/")
    page.get_by_label("Your display name").fill(name)
    page.get_by_label("Blue (moves first)").check()
    page.get_by_label("Width (boxes)").select_option(size)
    page.get_by_label("Height (boxes)").select_option(size)
    page.get_by_label("Turn timer").select_option(timer)
    page.get_by_role("button", name="Open the room").click()
    expect(page.locator("#conn")).to_have_text("Connected")
    return page.get_by_label("Invite link").input_value()


def take_seat(page: Page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_label("Your display name").fill(name)
    page.get_by_role("button", name="Play this game").click()
    expect(page.locator("#room")).to_have_attribute("data-me", "red")
    expect(page.locator("#conn")).to_have_text("Connected")


def version(page: Page) -> int:
    return int(page.locator("#room-sync").get_attribute("data-version"))


def draw(mover: Page, edge: str, *watchers: Page) -> None:
    """Click an edge and wait until every page shows the new version."""
    before = version(mover)
    mover.locator(f".edge-target[data-edge='{edge}']").click()
    for page in (mover, *watchers):
        expect(page.locator("#room-sync")).to_have_attribute("data-version", str(before + 1))


def test_two_players_and_a_spectator_play_to_the_end_and_rematch(site, browser):
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    contexts.append(browser.new_context(viewport={"width": 375, "height": 800}))
    alice, bob, carol = (c.new_page() for c in contexts)
    link = open_room(alice, site)
    expect(alice.locator("#room-status")).to_contain_text("Waiting for an opponent")
    take_seat(bob, link, "Bob")
    carol.goto(link)
    expect(carol.locator("#room")).to_have_attribute("data-me", "spectator")
    expect(carol.get_by_role("button", name="Play this game")).to_have_count(0)
    expect(alice.locator("#room-spectators .count")).to_have_text("1")
    expect(alice.locator("#room-status")).to_contain_text("Alice (Blue) to move")
    expect(alice.locator(".your-turn")).to_be_visible()
    expect(bob.locator(".your-turn")).to_be_hidden()

    pages = {"blue": alice, "red": bob}
    while True:
        turn = alice.locator("#room-board").get_attribute("data-turn")
        if not turn:
            break
        mover = pages[turn]
        edge = mover.locator(".edge-target").first.get_attribute("data-edge")
        others = [p for p in (alice, bob, carol) if p is not mover]
        draw(mover, edge, *others)
    for page in (alice, bob, carol):
        expect(page.locator("#room-status")).to_contain_text(re.compile(r"wins|tie"))
        expect(page.locator("line.edge.drawn")).to_have_count(12)
    shot(alice, "finished-alice")
    shot(carol, "finished-spectator-375")

    bob.get_by_role("button", name="Offer a rematch").click()
    expect(alice.locator(".offer-answer")).to_contain_text("Bob offers a rematch")
    expect(carol.locator(".offer")).to_contain_text("Bob offers a rematch")
    alice.locator(".offer-answer").get_by_role("button", name="Accept").click()
    for page in (alice, bob, carol):
        expect(page).not_to_have_url(link)
        expect(page.locator("#conn")).to_have_text("Connected")
    assert alice.url == bob.url == carol.url
    # Sides swapped: Bob now plays Blue and moves first.
    expect(bob.locator("#room")).to_have_attribute("data-me", "blue")
    expect(alice.locator("#room")).to_have_attribute("data-me", "red")
    expect(carol.locator("#room")).to_have_attribute("data-me", "spectator")
    expect(carol.locator("#room-status")).to_contain_text("Bob (Blue) to move")
    draw(bob, "a1-b1", alice, carol)
    shot(bob, "rematch-bob")
    for context in contexts:
        context.close()


def test_take_back_and_an_agreed_draw(site, browser):
    contexts = [browser.new_context() for _ in range(2)]
    alice, bob = (c.new_page() for c in contexts)
    link = open_room(alice, site, size="3")
    take_seat(bob, link, "Bob")
    draw(alice, "a1-b1", bob)
    draw(bob, "a4-b4", alice)
    alice.get_by_role("button", name="Ask to take back").click()
    expect(bob.locator(".offer-answer")).to_contain_text("Alice offers a take-back")
    expect(alice.locator(".offer")).to_contain_text("You offered a take-back")
    bob.locator(".offer-answer").get_by_role("button", name="Accept").click()
    for page in (alice, bob):
        expect(page.locator("line.edge.drawn")).to_have_count(0)
        expect(page.locator("#room-status")).to_contain_text("Alice (Blue) to move")

    draw(alice, "a1-b1", bob)
    alice.get_by_role("button", name="Offer a draw").click()
    bob.locator(".offer-answer").get_by_role("button", name="Decline").click()
    expect(alice.locator("#room-chat")).to_contain_text("Bob declined a draw")
    alice.get_by_role("button", name="Offer a draw").click()
    expect(alice.locator("#room-error")).to_contain_text("after the next move")
    bob.get_by_role("button", name="Offer a draw").click()
    alice.locator(".offer-answer").get_by_role("button", name="Accept").click()
    for page in (alice, bob):
        expect(page.locator("#room-status")).to_contain_text("Drawn by agreement")
    shot(bob, "agreed-draw")
    for context in contexts:
        context.close()


def test_an_absent_player_is_stood_in_for_and_gets_the_seat_back(site, browser):
    contexts = [browser.new_context() for _ in range(2)]
    alice, bob = (c.new_page() for c in contexts)
    link = open_room(alice, site, size="3")
    take_seat(bob, link, "Bob")
    draw(alice, "a1-b1", bob)
    bob.close()  # Bob's only page: his seat empties
    red = alice.locator(".seat-red .presence")
    expect(red).to_contain_text("the computer takes over in")
    shot(alice, "away-countdown")
    expect(red).to_contain_text("the computer plays for them", timeout=AWAY_SECONDS * 1000 + 8000)
    # The stand-in draws Red's turn; it is Blue's move again.
    expect(alice.locator("#room-board")).to_have_attribute("data-turn", "blue", timeout=10000)
    expect(alice.locator("#room-log .by-computer")).to_have_count(1)
    # The stand-in answers Alice's next edge at once, so her page may go straight from
    # version v to v + 2 without ever showing v + 1: wait for the answer, not for v + 1.
    before = version(alice)
    alice.locator(".edge-target[data-edge='a4-b4']").click()
    expect(alice.locator("#room-log .by-computer")).to_have_count(2, timeout=10000)
    expect(alice.locator("#room-sync")).to_have_attribute("data-version", str(before + 2))
    expect(alice.locator("#room-board")).to_have_attribute("data-turn", "blue", timeout=10000)
    expect(alice.locator("#room-log")).to_contain_text("Blue a4-b4")
    shot(alice, "stand-in")

    bob = contexts[1].new_page()  # the same browser opens the room again
    bob.goto(link)
    expect(bob.locator("#room")).to_have_attribute("data-me", "red")
    expect(red).to_contain_text("online")
    expect(alice.locator("#room-chat")).to_contain_text("Bob is back")
    edge = alice.locator(".edge-target").first.get_attribute("data-edge")
    draw(alice, edge, bob)
    expect(bob.locator(".your-turn")).to_be_visible()
    # Bob is in control: the computer no longer answers for him.
    edge = bob.locator(".edge-target").first.get_attribute("data-edge")
    draw(bob, edge, alice)
    last = bob.locator("#room-log .turn").last
    expect(last).to_contain_text(f"Red {edge}")
    expect(last.locator(".by-computer")).to_have_count(0)
    for context in contexts:
        context.close()


def test_a_presence_push_rendered_before_the_last_move_does_not_roll_the_page_back(site, browser):
    # A presence push can be rendered before a move and reach the page after the
    # move's own push.  Applied, it put back the older status and version, and the
    # player's next edge was posted with that version and refused.
    contexts = [browser.new_context() for _ in range(2)]
    alice, bob = (c.new_page() for c in contexts)
    sockets = []

    def forward(ws):  # the real server socket, with a handle to speak to the page too
        ws.connect_to_server()
        sockets.append(ws)

    bob.route_web_socket(re.compile(r"/ws/rooms/[^/]+/(\?.*)?$"), forward)
    link = open_room(alice, site, size="3")
    take_seat(bob, link, "Bob")
    draw(alice, "a1-b1", bob)
    now = version(bob)

    def presence(v: int, status: str) -> str:
        return (
            f'<div id="room-sync" hx-swap-oob="true" hidden data-version="{v}"'
            f' data-kind="presence" data-now="2030-01-01T00:00:00+00:00"></div>'
            f'<p id="room-status" class="room-status" hx-swap-oob="true">{status}</p>'
        )

    bob.evaluate(
        """() => document.addEventListener("htmx:wsBeforeMessage", (e) => {
            if (String(e.detail.message).includes("(stale)")) window.staleSeen = true;
        })"""
    )
    sockets[-1].send(presence(now - 1, "Alice (Blue) to move (stale)"))
    bob.wait_for_function("window.staleSeen === true")
    # Bob's next edge is accepted: the page did not go back to the older version.
    bob.locator(".edge-target[data-edge='a4-b4']").click()
    for page in (alice, bob):
        expect(page.locator("#room-sync")).to_have_attribute("data-version", str(now + 1))
        expect(page.locator("line.edge.drawn")).to_have_count(2)
    expect(bob.locator("#room-status")).not_to_contain_text("stale")
    # A presence push of the version the page shows is applied as it comes.
    sockets[-1].send(presence(now + 1, "Alice (Blue) to move (current)"))
    expect(bob.locator("#room-status")).to_contain_text("(current)")
    for context in contexts:
        context.close()


SNAPSHOT = """() => {
  const q = (s) => Array.from(document.querySelectorAll(s));
  const norm = (t) => t.replace(/\\s+/g, " ").trim();
  return {
    version: document.getElementById("room-sync").dataset.version,
    turn: document.getElementById("room-board").dataset.turn,
    edges: q("#room-board line.edge").map((e) => e.dataset.edge + " " + e.getAttribute("class")),
    stripes: q("#room-board .edge-stripe").length,
    boxes: q("#room-board .box").map((b) => b.dataset.box + " " + b.getAttribute("class")
      + " " + b.textContent).sort(),
    last: q("#rb-last line").map((l) => l.getAttribute("class") + l.getAttribute("x1")
      + "," + l.getAttribute("y1") + "," + l.getAttribute("x2") + "," + l.getAttribute("y2")),
    targets: q("#room-board .edge-target").map((t) => t.dataset.edge).sort(),
    scores: q(".seat-score").map((s) => s.textContent + " " + s.getAttribute("aria-label")),
    toMove: q(".seat.to-move").map((s) => s.dataset.side),
    // The seats as drawn, but for the countdown's seconds, which tick on their own.
    seats: q("#room-players .seat").map((s) => {
      const c = s.cloneNode(true);
      c.querySelectorAll(".secs").forEach((e) => { e.textContent = ""; });
      c.querySelectorAll(".urgent").forEach((e) => e.classList.remove("urgent"));
      return norm(c.outerHTML.replace(/>\\s+</g, "><"));
    }),
    clocks: q("#room-players [data-deadline]").map((e) => e.closest(".seat").dataset.side
      + " " + e.dataset.deadline),
    status: norm(document.getElementById("room-status").textContent),
    log: q("#room-log li").map((li) => norm(li.textContent)),
    logHtml: q("#room-log li").map((li) => norm(li.outerHTML.replace(/>\\s+</g, "><"))),
    abort: q("#room-abort").length,
    // The action forms and offers (their version inputs are set when sent: rooms.js).
    actions: q("#room-actions form, #room-actions .offer").map((e) =>
      e.getAttribute("action") || e.id),
  };
}"""


def snapshot(page: Page) -> dict:
    """The room as ``page`` draws it, once htmx has settled its last swap.

    htmx marks swapped-in nodes ``htmx-added`` for a moment (its settle delay), so a
    snapshot taken just after a push would differ from a fresh load by that class alone.
    """
    expect(page.locator(".htmx-added, .htmx-settling, .htmx-swapping")).to_have_count(0)
    return page.evaluate(SNAPSHOT)


def play_some(pages: dict[str, Page], moves: int, seed: int, *watchers: Page) -> None:
    """Draw ``moves`` edges, each by whoever is to move, on a target picked at random."""
    import random

    rng = random.Random(seed)
    for _ in range(moves):
        turn = pages["blue"].locator("#room-board").get_attribute("data-turn")
        mover = pages[turn]
        targets = mover.locator(".edge-target")
        edge = targets.nth(rng.randrange(targets.count())).get_attribute("data-edge")
        draw(mover, edge, *[p for p in pages.values() if p is not mover], *watchers)


def test_pushed_moves_leave_every_page_as_a_fresh_load_would_show_it(site, browser):
    alice, bob, carol = (browser.new_context().new_page() for _ in range(3))
    # Timed: a move's push swaps the scores and clocks alone, and the seats' to-move
    # class comes from the version marker, so the seats are compared whole.
    link = open_room(alice, site, size="3", timer="60")
    take_seat(bob, link, "Bob")
    carol.goto(link)
    expect(carol.locator("#conn")).to_have_text("Connected")
    play_some({"blue": alice, "red": bob}, 15, 7, carol)
    # The player who waits offers a draw; the mover's next edge withdraws it, and its
    # push takes the offer away and puts the button back, alone.
    waiting = bob if alice.locator("#room-board").get_attribute("data-turn") == "blue" else alice
    waiting.get_by_role("button", name="Offer a draw").click()
    for page in (alice, bob, carol):
        expect(page.locator("#room-offer-draw")).to_have_count(1)
    play_some({"blue": alice, "red": bob}, 1, 8, carol)
    for page in (alice, bob, carol):
        expect(page.locator("#room-offer-draw")).to_have_count(0)
    expect(waiting.get_by_role("button", name="Offer a draw")).to_be_visible()
    seen = {name: snapshot(page) for name, page in (("a", alice), ("c", carol))}
    assert seen["c"]["boxes"], "the moves claimed no box: pick another seed"
    assert seen["c"]["clocks"] and any("," in line for line in seen["c"]["log"])
    assert seen["c"]["abort"] == 0  # both have played: the abort button went with a push
    shot(carol, "lean-pushes-spectator")
    for name, page in (("a", alice), ("c", carol)):
        page.reload()
        expect(page.locator("#conn")).to_have_text("Connected")
        assert snapshot(page) == seen[name]


def test_a_page_that_misses_a_push_fetches_the_whole_room(site, browser):
    alice, bob, carol = (browser.new_context().new_page() for _ in range(3))
    link = open_room(alice, site, size="3")
    take_seat(bob, link, "Bob")
    carol.goto(link)
    expect(carol.locator("#conn")).to_have_text("Connected")
    play_some({"blue": alice, "red": bob}, 3, 3, carol)
    fetched: list[str] = []
    carol.on("request", lambda r: fetched.append(r.url) if r.url.endswith("/state") else None)
    # Lose the next push on its way to the spectator's page, as a dropped message would.
    carol.evaluate(
        """() => window.addEventListener("htmx:wsBeforeMessage", function drop(evt) {
             if (evt.detail.message.includes('data-kind="game"')) {
               evt.preventDefault(); window.removeEventListener("htmx:wsBeforeMessage", drop, true);
             }
           }, true)"""
    )
    start = version(carol)
    play_some({"blue": alice, "red": bob}, 1, 4)
    expect(alice.locator("#room-sync")).to_have_attribute("data-version", str(start + 1))
    carol.wait_for_timeout(500)
    if version(carol) == start:  # the push was lost
        play_some({"blue": alice, "red": bob}, 1, 5, carol)  # the next one shows the gap
        expect(carol.locator("#room-sync")).to_have_attribute("data-version", str(start + 2))
    # Else another of the room's messages showed the gap first (seen once in CI): the page
    # caught up all the same, and only a fetch of the room can have brought it (below).
    assert fetched, "the gap did not make the page fetch the room"
    seen = snapshot(carol)
    carol.reload()
    expect(carol.locator("#conn")).to_have_text("Connected")
    assert snapshot(carol) == seen
