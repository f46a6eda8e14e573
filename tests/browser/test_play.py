"""A person plays Dots and Boxes in headless Chromium: clicks, keys, hints, undo, replay."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from dotsboxes.games.models import Game
from tests.games.test_palette import contrast

from .conftest import ARTIFACTS

pytestmark = pytest.mark.browser

THINK_TIMEOUT = 20_000  # ms: the computer answers from another process
# The machine running the suite may be busy: give every page update some slack.
expect.set_options(timeout=15_000)


def new_game(page: Page, base: str, *, mode: str, size: str, side: str = "blue") -> Game:
    page.goto(base + "/play/")
    page.get_by_label(
        "Against the computer" if mode == "computer" else "Two players on this device"
    ).check()
    page.get_by_label(size.replace("x", " \N{MULTIPLICATION SIGN} "), exact=True).check()
    if mode == "computer":
        page.get_by_label(re.compile(f"{side.capitalize()}: ")).check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#game")).to_be_visible()
    # The board's clicks are wired by deferred scripts: a click before the load
    # event can land on a board that does not listen yet (seen once under load).
    page.wait_for_load_state("load")
    public_id = page.url.rstrip("/").split("/")[-1]
    return Game.objects.get(public_id=public_id)


def draw(page: Page, edge: str | None = None) -> str:
    """Click an edge (the first one free by default) and wait until the page shows it drawn."""
    slot = page.locator(f'.slot[data-edge="{edge}"]' if edge else ".slot").first
    edge = slot.get_attribute("data-edge")
    slot.click()
    expect(page.locator(f'.edge.drawn[data-edge="{edge}"]')).to_have_count(1)
    return edge


def wait_for_my_turn(page: Page) -> None:
    """Wait until the computer has answered (the board has clickable edges again)."""
    expect(page.locator(".thinking")).to_have_count(0, timeout=THINK_TIMEOUT)


def test_a_whole_2x2_game_against_the_computer_by_clicking(live_server, page, screenshot):
    game = new_game(page, live_server.url, mode="computer", size="2x2")
    screenshot("start")
    clicks = 0
    while not page.locator(".result-banner").count():
        wait_for_my_turn(page)
        if page.locator(".result-banner").count():
            break
        slot = page.locator(".slot").first
        edge = slot.get_attribute("data-edge")
        slot.click()
        clicks += 1
        # The player's edge shows at once, in Blue.
        expect(page.locator(f'.edge.by-blue[data-edge="{edge}"]')).to_have_count(1)
        assert clicks <= 12
    expect(page.locator(".result-banner")).to_contain_text(re.compile(r"wins \d to \d|tie"))
    game.refresh_from_db()
    assert game.status == "finished" and game.moves.count() == 12
    assert game.blue_score + game.red_score == 4
    expect(page.get_by_role("link", name="Learn from this game")).to_be_visible()
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()
    screenshot("finished")


def test_completing_a_box_claims_it_and_gives_an_extra_move(live_server, page, screenshot):
    new_game(page, live_server.url, mode="local", size="2x2")
    for edge in ("a1-b1", "a2-b2", "a1-a2"):
        page.locator(f'.slot[data-edge="{edge}"]').click()
        expect(page.locator(f'.edge[data-edge="{edge}"]')).to_have_count(1)
    # Blue drew a1-b1 and a1-a2, Red a2-b2: Red is to move and closes the box.
    page.locator('.slot[data-edge="b1-b2"]').click()
    status = page.locator("#game-status")
    expect(status).to_have_text("Red draws b1-b2 and claims a box; Red moves again.")
    expect(page.locator(".score-red .score-total")).to_have_text("1")
    expect(page.locator(".box-red text")).to_have_text("R")
    expect(page.locator(".score-red")).to_have_class(re.compile("to-move"))
    screenshot("extra-move")


def test_hint_undo_and_replay_to_the_start_and_back(live_server, page, screenshot):
    game = new_game(page, live_server.url, mode="computer", size="3x3")
    page.get_by_role("button", name="Hint").click()
    hint = page.locator(".edge.highlight")
    expect(hint).to_have_count(1)
    expect(page.locator(".hint-line")).to_contain_text("Hint: draw")
    edge = hint.get_attribute("data-edge")
    screenshot("hint")
    draw(page, edge)
    wait_for_my_turn(page)
    game.refresh_from_db()
    assert game.hints_used == 1 and game.moves.count() >= 2
    expect(page.get_by_text("Hints used: 1.")).to_be_visible()

    page.get_by_role("button", name="Undo turn").click()
    expect(page.locator(".edge.drawn")).to_have_count(0)
    expect(page.locator("#game-status")).to_have_text("Blue to move.")
    assert game.moves.count() == 0

    draw(page, edge)
    wait_for_my_turn(page)
    total = game.moves.count()
    page.get_by_role("link", name="Replay").last.click()
    expect(page.locator(".replay-pos")).to_have_text(f"Edge {total} of {total}")
    page.get_by_role("link", name="First").click()
    expect(page.locator(".replay-pos")).to_have_text(f"Edge 0 of {total}")
    expect(page.locator("#replay .edge.drawn")).to_have_count(0)
    assert page.url.endswith("?ply=0")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".replay-pos")).to_have_text(f"Edge 1 of {total}")
    expect(page.locator(f'#replay .edge.drawn[data-edge="{edge}"]')).to_have_count(1)
    page.keyboard.press("End")
    expect(page.locator(".replay-pos")).to_have_text(f"Edge {total} of {total}")
    page.keyboard.press("Home")
    expect(page.locator(".replay-pos")).to_have_text(f"Edge 0 of {total}")
    # Keys pressed faster than the server answers are queued, not lost.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".replay-pos")).to_have_text(f"Edge 2 of {total}")
    page.get_by_role("link", name="Last").click()
    expect(page.locator("#replay .edge.drawn")).to_have_count(total)
    screenshot("replay")


def test_a_same_device_3x3_game_is_played_to_the_end(live_server, page, screenshot):
    game = new_game(page, live_server.url, mode="local", size="3x3")
    for n in range(24):
        page.locator(".slot").first.click()
        expect(page.locator(".edge.drawn")).to_have_count(n + 1)
    banner = page.locator(".result-banner")
    expect(banner).to_be_visible()
    game.refresh_from_db()
    blue, red = game.blue_score, game.red_score
    assert blue + red == 9 and game.status == "finished"
    winner = "Blue" if blue > red else "Red"
    expect(banner).to_contain_text(f"{winner} wins {max(blue, red)} to {min(blue, red)}")
    expect(page.locator(".slot")).to_have_count(0)
    screenshot("finished")


def test_an_edge_is_drawn_with_the_keyboard_only(live_server, page, screenshot):
    game = new_game(page, live_server.url, mode="local", size="2x2")
    board_slot = page.locator(".slot[tabindex='0']")
    expect(board_slot).to_have_count(1)  # one tab stop for the whole board
    for _ in range(30):  # Tab from the top of the page, as a keyboard user does
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('slot')"):
            break
    assert page.evaluate("document.activeElement.dataset.edge") == "a1-b1"
    # Up from the bottom-left edge: straight up to the middle row, not a side edge.
    page.keyboard.press("ArrowUp")
    moved = page.evaluate("document.activeElement.dataset.edge")
    assert moved == "a2-b2"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.edge") != "a2-b2"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.edge") == moved
    screenshot("focus")
    page.keyboard.press("Enter")
    expect(page.locator(f'.edge.drawn[data-edge="{moved}"]')).to_have_count(1)
    assert game.moves.get().edge == moved
    # Focus stays on the board for the next edge.
    expect(page.locator(".slot:focus")).to_have_count(1)
    # Typing an edge works too, and the box keeps focus for the next one.
    page.get_by_label("Type an edge").fill("c3-b3")
    page.keyboard.press("Enter")
    expect(page.locator('.edge.drawn[data-edge="b3-c3"]')).to_have_count(1)
    expect(page.get_by_label("Type an edge")).to_be_focused()
    assert game.moves.count() == 2


def _inside(page: Page, locator, width: int = 375) -> None:
    """``locator`` is visible and lies wholly within the viewport's width."""
    locator.scroll_into_view_if_needed()
    expect(locator).to_be_visible()
    box = locator.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box


def test_a_375px_phone_shows_the_whole_board_and_every_control(live_server, browser):
    context = browser.new_context(viewport={"width": 375, "height": 740})
    page = context.new_page()
    try:
        new_game(page, live_server.url, mode="computer", size="5x5")
        draw(page)
        wait_for_my_turn(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        board = page.locator(".board-svg")
        _inside(page, board)
        assert board.bounding_box()["height"] <= 740  # the whole board at once
        # Every free edge is a large touch target, even on 5 x 5 at this width.
        smallest = page.evaluate(
            """Math.min(...[...document.querySelectorAll('.slot .slot-hit')].map((el) => {
                const r = el.getBoundingClientRect(); return Math.min(r.width, r.height); }))"""
        )
        assert smallest >= 44, smallest
        _inside(page, page.locator(".edge-legend"))
        for name in ("Hint", "Undo turn", "Draw"):
            control = page.get_by_role("button", name=name, exact=True)
            _inside(page, control)
            assert control.bounding_box()["height"] >= 40
        for name in ("New game", "Replay", "Record", "Report a problem"):
            _inside(page, page.get_by_role("link", name=name, exact=True).first)
        _inside(page, page.get_by_label("Type an edge"))
        page.get_by_text("Edges you can draw").click()
        _inside(page, page.locator(".legal-list button").last)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "play-phone-375.png"), full_page=True)
        page.get_by_text("Resign…").click()
        _inside(page, page.get_by_role("button", name="Yes, resign"))
        page.get_by_role("button", name="Yes, resign").click()
        _inside(page, page.locator(".result-banner"))
        _inside(page, page.get_by_role("button", name="Rematch"))
        _inside(page, page.get_by_label("the other side draws first"))
        page.screenshot(path=str(ARTIFACTS / "play-phone-375-over.png"), full_page=True)

        page.get_by_role("link", name="Replay").first.click()
        _inside(page, page.locator("#replay .board-svg"))
        for name in ("First", "Previous turn", "Previous edge", "Next edge", "Next turn", "Last"):
            _inside(page, page.get_by_role("link", name=name, exact=True))
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        page.screenshot(path=str(ARTIFACTS / "play-phone-375-replay.png"), full_page=True)

        page.goto(live_server.url + "/play/")
        page.get_by_label("Other size").check()
        for label in (
            "Two players on this device",
            "5 \N{MULTIPLICATION SIGN} 5",
            "Width in boxes",
            "Height in boxes",
        ):
            _inside(page, page.get_by_label(label, exact=True))
        _inside(page, page.get_by_role("button", name="Start the game"))
        for path in ("/play/", "/play/import/", "/play/mine/"):
            page.goto(live_server.url + path)
            assert page.evaluate("document.documentElement.scrollWidth") <= 375, path
    finally:
        context.close()


def test_every_play_page_renders_for_screenshots(live_server, page, screenshot):
    game = new_game(page, live_server.url, mode="local", size="5x4")
    page.locator(".slot").first.click()
    expect(page.locator(".edge.drawn")).to_have_count(1)
    screenshot("game")
    page.goto(live_server.url + "/play/")
    screenshot("new")
    page.goto(live_server.url + f"/play/{game.public_id}/replay/?ply=1")
    screenshot("replay")
    page.goto(live_server.url + "/play/import/")
    page.get_by_label("Game record").fill("Size: 2 x 2 boxes\n\n1. a1-b1  2. a1-b1\n")
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("alert")).to_contain_text("Turn 2, edge a1-b1")
    screenshot("import-error")
    page.goto(live_server.url + "/play/mine/")
    expect(page.get_by_role("table")).to_contain_text("5 \N{MULTIPLICATION SIGN} 4")
    screenshot("mine")
    page.goto(live_server.url + "/play/no-such-game/")
    expect(page.get_by_text("There is no such game.")).to_be_visible()
    screenshot("not-found")


def test_without_javascript_every_action_works_as_a_plain_form(live_server, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        game = new_game(page, live_server.url, mode="computer", size="2x2")
        page.get_by_label("Type an edge").fill("B1-a1")
        page.get_by_role("button", name="Draw", exact=True).click()
        # The page refreshes itself while the computer thinks, then shows its reply.
        expect(page.locator(".edge.drawn")).to_have_count(2, timeout=THINK_TIMEOUT)
        expect(page.locator("#game-status")).to_contain_text("Blue to move")
        page.get_by_role("button", name="Hint").click()
        hint = page.locator(".edge.highlight")
        expect(hint).to_have_count(1)
        expect(page.get_by_role("status").first).to_contain_text("Hint: draw")
        edge = hint.get_attribute("data-edge")  # a safe edge: the computer's turn stays short
        page.get_by_text("Edges you can draw").click()
        page.locator(f'.legal-list button[value="{edge}"]').click()
        expect(page.locator(f'.edge.drawn[data-edge="{edge}"]')).to_have_count(1)
        expect(page.locator(".edge.drawn")).to_have_count(4, timeout=THINK_TIMEOUT)
        expect(page.locator(".thinking")).to_have_count(0, timeout=THINK_TIMEOUT)
        page.get_by_role("button", name="Undo turn").click()
        expect(page.locator(".edge.drawn")).to_have_count(2)
        page.get_by_text("Resign…").click()
        page.get_by_role("button", name="Yes, resign").click()
        expect(page.locator(".result-banner")).to_contain_text("resigned")
        game.refresh_from_db()
        assert game.termination == "resigned" and game.hints_used == 1
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "play-no-javascript.png"), full_page=True)
    finally:
        context.close()


def _painted(page: Page, selector: str, prop: str) -> str:
    """The colour ``selector``'s ``prop`` is painted in, its opacity blended over the board."""
    return page.evaluate(
        """([selector, prop]) => {
            const el = document.querySelector(selector);
            const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
            const [r, g, b, a = 1] = rgb(getComputedStyle(el)[prop]);
            let alpha = a;
            for (let node = el; node && node.nodeType === 1; node = node.parentNode) {
                alpha *= +getComputedStyle(node).opacity;
            }
            const [br, bg, bb] = rgb(getComputedStyle(el.closest(".board-wrap")).backgroundColor);
            const mix = (c, d) => Math.round(c * alpha + d * (1 - alpha));
            return "#" + [mix(r, br), mix(g, bg), mix(b, bb)]
                .map((c) => c.toString(16).padStart(2, "0")).join("");
        }""",
        [selector, prop],
    )


def test_guides_hover_and_focus_keep_3_to_1_as_the_browser_paints_them(live_server, page):
    new_game(page, live_server.url, mode="local", size="2x2")
    board = page.evaluate("getComputedStyle(document.querySelector('.board-wrap')).backgroundColor")
    assert board == "rgb(255, 255, 255)"
    white = "#ffffff"
    guide = _painted(page, '.slot[data-edge="b3-c3"] .slot-line', "stroke")
    assert contrast(guide, white) >= 3.0, guide
    for turn in ("Blue", "Red"):
        page.locator('.slot[data-edge="b3-c3"]').hover()
        hover = _painted(page, '.slot[data-edge="b3-c3"] .slot-line', "stroke")
        assert contrast(hover, white) >= 3.0, (turn, hover)
        draw(page, "a1-b1" if turn == "Blue" else "a2-b2")
        page.mouse.move(0, 0)
    for _ in range(30):  # reach the board from the keyboard: the focus ring shows
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('slot')"):
            break
    ring = _painted(page, ".slot:focus-visible .slot-hit", "stroke")
    line = _painted(page, ".slot:focus-visible .slot-line", "stroke")
    assert contrast(ring, white) >= 3.0 and contrast(line, white) >= 3.0, (ring, line)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_computers_edges_draw_in_unless_motion_is_reduced(live_server, browser, motion):
    context = browser.new_context(reduced_motion=motion)
    page = context.new_page()
    try:
        new_game(page, live_server.url, mode="computer", size="3x3")
        draw(page, "a1-b1")
        fresh = page.locator(".edge.fresh")
        expect(fresh.first).to_be_attached(timeout=THINK_TIMEOUT)
        animation = fresh.first.evaluate("el => getComputedStyle(el).animationName")
        assert animation == ("none" if motion == "reduce" else "draw-edge")
        # Either way the edge ends fully drawn, and so does the stripe of Red's edges.
        expect(fresh.first).to_have_css("stroke-dashoffset", re.compile(r"^0(px)?$"))
        stripe = page.locator(".edge-stripe.fresh").first
        expect(stripe).to_have_css("stroke-dashoffset", re.compile(r"^0(px)?$"))
        expect(page.locator(".thinking-dot")).to_have_count(0)
    finally:
        context.close()


# Every edge name in the turn logs of a page: how many line boxes its text takes up, and
# the top of each (a Range over the name's characters, whatever markup holds them).
EDGE_LINES_JS = """(selector) => {
  const found = [];
  for (const item of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/[a-j](?:10|[1-9])-[a-j](?:10|[1-9])/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 1);
        found.push({item: [...document.querySelectorAll(selector)].indexOf(item),
                    edge: m[0], lines: rects.length, top: Math.round(rects[0].top)});
      }
    }
  }
  return found;
}"""


@pytest.mark.parametrize(
    ("where", "selector"),
    [("game", ".log-turn"), ("replay", ".log-turn"), ("exercise", ".replay-turns li")],
)
def test_edge_names_never_break_inside_in_a_narrow_turn_log(live_server, page, where, selector):
    # Browsers break a line after a hyphen ("c3-" / "c4"): a long turn may wrap only
    # after a comma, and the text a reader copies keeps its plain hyphens.
    from django.urls import reverse

    from tests.guide.test_from_game import finished_game

    game = finished_game()  # Blue takes a chain of four boxes in one long turn
    url = {
        "game": game.get_absolute_url(),
        "replay": reverse("games:replay", args=[game.public_id]),
        "exercise": "/learn/practice/replay-the-long-chain/?ply=99",
    }[where]
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server.url + url)
    first = page.locator(selector).first
    expect(first).to_be_visible()
    # Narrow logs of many widths, so that the long turn wraps at every place it could.
    wrapped = 0
    for width in range(80, 200, 6):
        page.evaluate(
            "([s, w]) => document.querySelectorAll(s).forEach((li) => { li.style.width = w; })",
            [selector, f"{width}px"],
        )
        found = page.evaluate(EDGE_LINES_JS, selector)
        assert len(found) >= 10
        broken = [f["edge"] for f in found if f["lines"] != 1]
        assert not broken, f"edge names broken across lines at {width} px: {broken}"
        tops = {}
        for f in found:
            tops.setdefault(f["item"], set()).add(f["top"])
        wrapped += max(len(t) for t in tops.values()) >= 3
    assert wrapped  # the long turn did wrap
    long_turn = page.locator(selector).filter(has_text=re.compile(r"(\w\d-\w\d, ){3}"))
    assert re.search(r"(\w\d-\w\d, ){3}\w\d-\w\d", long_turn.first.text_content())


def test_a_stale_forms_message_goes_once_the_board_is_brought_up_to_date(live_server, page):
    # Issue 23: after quick clicks, a plain form answered "The board had changed since that
    # page was loaded, so nothing was done" at the top of the page, and it stayed there
    # above the final result while the game went on through htmx.
    game = new_game(page, live_server.url, mode="local", size="2x2")
    form = page.locator("#move-form")
    token = form.locator("[name=csrfmiddlewaretoken]").get_attribute("value")
    stale = {"csrfmiddlewaretoken": token, "version": "0", "ply": "0", "edge": "a1-b1"}
    draw(page, "a1-a2")  # the game moves on: the form above is now out of date
    answer = page.request.post(
        live_server.url + form.get_attribute("action"),
        form=stale,
        headers={"Referer": page.url},
        max_redirects=0,
    )  # what a second quick click sends without JavaScript
    assert answer.status == 302
    page.reload()
    message = page.locator(".messages")
    expect(message).to_contain_text("The board had changed since that page was loaded")
    page.wait_for_load_state("load")
    for _ in range(11):
        draw(page)
    expect(page.locator(".result-banner")).to_be_visible()
    expect(message).to_have_count(0)
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
