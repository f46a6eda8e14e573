"""A finished game is analysed, its graph clicked, and a position explored on the analysis board."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from dotsboxes.analysis.models import GameAnalysis
from dotsboxes.games.models import Game

from .test_play import draw, new_game

pytestmark = pytest.mark.browser
expect.set_options(timeout=20_000)


def slot_labels(page: Page) -> dict[str, str]:
    slots = page.locator("#analysis-board .slot")
    return {
        slots.nth(i).get_attribute("data-edge"): slots.nth(i).get_attribute("aria-label")
        for i in range(slots.count())
    }


def settled(page: Page) -> None:
    expect(page.locator("#analysis-board")).to_have_attribute("data-state", "final")


def test_a_game_is_analysed_its_graph_clicked_and_a_position_explored(
    live_server, page, screenshot
):
    page.set_viewport_size({"width": 1280, "height": 900})
    game = new_game(page, live_server.url, mode="local", size="2x2")
    for n in range(12):
        page.locator(".slot").first.click()
        expect(page.locator(".edge.drawn")).to_have_count(n + 1)
    expect(page.locator(".result-banner")).to_be_visible()

    page.goto(live_server.url + f"/play/{game.public_id}/replay/")
    page.get_by_role("button", name="Analyse this game").click()
    graph = page.locator(".value-graph")
    expect(graph).to_be_visible()  # it arrives by the panel's poll, no reload
    expect(graph.locator(".graph-point.exact")).to_have_count(13)
    analysis = GameAnalysis.objects.get(game=game)
    marked = [e for e in analysis.result["edges"] if e["mark"]]
    assert marked, "first-edge play on 2 x 2 gives a box away at edge 5"
    expect(page.locator(".marked-edges")).to_contain_text(f"Edge {marked[0]['ply']}")
    expect(page.locator(".log-mark")).to_have_count(len(marked))
    screenshot("replay-1280")

    page.locator('.graph-point[data-ply="4"]').click()
    expect(page).to_have_url(re.compile(r"ply=4$"))
    expect(page.locator(".replay-pos")).to_have_text("Edge 4 of 12")
    best = analysis.result["edges"][4]["best"]
    expect(page.locator(".board-svg .edge.highlight")).to_have_count(len(best))
    expect(page.locator('.graph-point.now[data-ply="4"]')).to_have_count(1)

    page.get_by_role("link", name="Analyse from here").click()
    expect(page.locator("h1")).to_have_text("Analysis board")
    settled(page)
    before = slot_labels(page)
    assert len(before) == 8 and all(", value " in label for label in before.values())
    first = page.locator("#analysis-board .slot").first.get_attribute("data-edge")
    page.locator(f'#analysis-board .slot[data-edge="{first}"]').click()
    expect(page.locator(f'#analysis-board .edge.drawn[data-edge="{first}"]')).to_have_count(1)
    settled(page)
    second = page.locator("#analysis-board .slot").first.get_attribute("data-edge")
    page.locator(f'#analysis-board .slot[data-edge="{second}"]').click()
    expect(page.locator(f'#analysis-board .edge.drawn[data-edge="{second}"]')).to_have_count(1)
    settled(page)
    expect(page).to_have_url(re.compile(f"line={first}%2C{second}$"))
    after = slot_labels(page)
    assert len(after) == 6
    assert after != {e: before[e] for e in after}, "the values move with the position"
    expect(page.locator(".pv")).to_contain_text("Best line:")
    screenshot("board-1280")

    page.set_viewport_size({"width": 375, "height": 740})
    screenshot("board-375")
    page.goto(live_server.url + f"/play/{game.public_id}/replay/?ply=4")
    expect(page.locator(".value-graph")).to_be_visible()
    screenshot("replay-375")


def test_the_analysis_board_works_without_javascript(live_server, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + "/analysis/?size=2x2")
    expect(page.locator("#analysis-board")).to_have_attribute(
        "data-state", "final", timeout=30_000
    )  # the page refreshes itself until the values are in
    page.get_by_role("link", name="Draw a1-b1").click()
    expect(page).to_have_url(re.compile(r"line=a1-b1"))
    expect(page.locator('.edge.drawn[data-edge="a1-b1"]')).to_have_count(1)
    expect(page.locator("#analysis-board")).to_have_attribute("data-state", "final", timeout=30_000)
    expect(page.locator(".values-table tbody tr")).to_have_count(11)
    context.close()


def test_a_5x5_endgame_shows_every_free_edge_in_colour(live_server, page, screenshot):
    from dotsboxes.engine.players import choose
    from dotsboxes.rules import Board

    board = Board(5, 5)
    while len(board.legal_moves) > 28:
        board.play(choose(board, level="casual", seed=11))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server.url + f"/analysis/?position={board.key()}")
    settled(page)
    expect(page.locator(".status-line")).to_contain_text("Exact values (solved).")
    labels = slot_labels(page)
    assert len(labels) == len(board.legal_moves)
    assert all(", exact, value " in label for label in labels.values())
    colours = {
        page.locator(".tint line").nth(i).get_attribute("stroke")
        for i in range(page.locator(".tint line").count())
    }
    assert len(colours) >= 2, "best and losing edges differ in colour"
    screenshot("1280")
    page.set_viewport_size({"width": 375, "height": 740})
    screenshot("375")


def test_a_game_is_analysed_and_its_graph_followed_without_javascript(live_server, browser):
    from dotsboxes.games.models import Game
    from tests.gamefactory import played_game

    game = played_game(width=2, height=2, seed=3, mode=Game.Mode.LOCAL)
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + f"/play/{game.public_id}/replay/")
    page.get_by_role("button", name="Analyse this game").click()  # a plain form post
    graph = page.locator(".value-graph")
    expect(graph).to_be_visible(timeout=30_000)  # the page refreshes itself until it is done
    page.locator('.graph-point[data-ply="2"]').click()  # a plain link
    expect(page).to_have_url(re.compile(r"ply=2$"))
    expect(page.locator(".replay-pos")).to_have_text("Edge 2 of 12")
    expect(page.locator('.graph-point.now[data-ply="2"]')).to_have_count(1)
    context.close()


def test_the_turn_log_of_an_earlier_position_shows_that_turn(live_server, page):
    from dotsboxes.games.models import Game
    from tests.gamefactory import played_game

    game = played_game(width=4, height=4, seed=2, mode=Game.Mode.LOCAL)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server.url + f"/play/{game.public_id}/replay/?ply=3")

    def in_view(selector: str) -> bool:
        # Polled: the log is scrolled once htmx has settled the swap, a moment after it.
        page.wait_for_function(
            """(sel) => { const box = document.querySelector('.log-scroll');
                const row = document.querySelector(sel);
                if (!box || !row) return false;
                const b = box.getBoundingClientRect(), r = row.getBoundingClientRect();
                return box.scrollHeight > box.clientHeight
                    && r.top >= b.top - 1 && r.bottom <= b.bottom + 1; }""",
            arg=selector,
            timeout=10_000,
        )
        return True

    # The log is longer than its box; the third edge's turn is the one in view.
    expect(page.locator(".log-current")).to_contain_text(str(game.moves.get(ply=3).edge))
    assert in_view(".log-current")
    page.locator('[data-nav="last"]').click()  # an htmx swap
    expect(page.locator(".replay-pos")).to_have_text(
        f"Edge {game.moves.count()} of {game.moves.count()}"
    )
    assert in_view(".log-current")
    page.locator('[data-nav="first"]').click()
    expect(page.locator(".replay-pos")).to_have_text(f"Edge 0 of {game.moves.count()}")
    page.locator('[data-nav="next-turn"]').click()
    expect(page.locator(".log-current")).to_have_attribute("value", "1")
    assert in_view(".log-current")


def test_the_analysis_players_table_fits_a_phone_in_both_languages(live_server, page, screenshot):
    # Issue 23: /play/<id>/replay/ and /analysis/game/<id>/ were 379 px wide at 375 px in
    # English and 397 px in Chinese; the table's last column was cut off.
    # Against the computer ("Computer (beginner)"), and a typed name as long as one may be.
    page.set_viewport_size({"width": 1280, "height": 900})
    game = new_game(page, live_server.url, mode="computer", size="2x2")
    while page.locator(".result-banner").count() == 0:
        slot = page.locator("#game .slot").first
        if slot.count():
            draw(page, slot.get_attribute("data-edge"))
    Game.objects.filter(pk=game.pk).update(blue_name="Konstantinopoulou-Alexandrovna12")
    page.goto(live_server.url + f"/play/{game.public_id}/replay/")
    page.get_by_role("button", name="Analyse this game").click()
    expect(page.locator(".analysis-players")).to_be_visible()
    page.set_viewport_size({"width": 375, "height": 740})
    for language in ("en-GB", "zh-CN"):
        page.set_extra_http_headers({"Accept-Language": language})
        for url in (f"/play/{game.public_id}/replay/", f"/analysis/game/{game.public_id}/"):
            page.goto(live_server.url + url)
            table = page.locator(".analysis-players")
            expect(table).to_be_visible()
            width = page.evaluate("document.documentElement.scrollWidth")
            right = table.evaluate("t => t.getBoundingClientRect().right")
            kind = "replay" if "replay" in url else "analysis"
            shot = screenshot(f"{kind}-{language}-375")
            assert width <= 375 and right <= 375, (url, language, width, right, shot)
