"""The analysis board through plain GET forms and links (no JavaScript)."""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qs, urlparse

import pytest
from django.urls import reverse

from dotsboxes.engine import solver
from dotsboxes.rules import Board

pytestmark = pytest.mark.django_db(transaction=True)

BOARD = reverse("analysis:board")


@pytest.fixture(autouse=True)
def _no_board_pass_left_running():
    """Start with none of this process's board passes running.

    A pass another test left (a browser test's board in this process, a deep pass of
    up to 30 s) holds one of the process's :data:`~dotsboxes.analysis.board.BUSY_LIMIT`
    places, and a test that counts on starting its own met "busy" (CI, once).
    """
    from dotsboxes.analysis import board as board_jobs

    deadline = time.monotonic() + 60
    while board_jobs.running():
        assert time.monotonic() < deadline, "a board pass of another test never ended"
        time.sleep(0.1)


def settled(client, url: str, timeout: float = 60.0) -> str:
    """Fetch ``url`` until its values are final (as the page's refresh does)."""
    deadline = time.monotonic() + timeout
    while True:
        page = client.get(url).content.decode()
        if 'data-state="final"' in page:
            return page
        assert '<meta http-equiv="refresh"' in page  # without JS the page refreshes itself
        assert time.monotonic() < deadline, "the values did not come in time"
        time.sleep(0.2)


def values_of(page: str) -> dict[str, int]:
    rows = re.findall(r'<tr><th scope="row">([a-z0-9-]+)</th><td>([+-]\d+)</td>', page)
    return {edge: int(v) for edge, v in rows}


def test_every_free_edge_gets_its_exact_value_on_a_small_board(client):
    page = settled(client, BOARD + "?size=2x2")
    values = values_of(page)
    board = Board(2, 2)
    assert values == {str(e): v for e, v in solver.move_values(board).items()}
    assert "Exact values (solved)." in page
    # Each value is spoken with its edge, and coloured on the board.
    assert re.search(
        r'aria-label="Draw a1-b1, (best|loses \d box(es)?), exact, value [+-]\d+"', page
    )
    assert page.count('class="tint"') == 12
    assert "Best line:" in page and "<dt>Pieces</dt>" in page and "<dt>Safe edges left</dt>" in page


def test_drawing_edges_keeps_the_position_in_the_url_and_undo_goes_back(client):
    response = client.get(BOARD + "?size=2x2&edge=a1-b1")
    assert response.status_code == 302
    query = parse_qs(urlparse(response["Location"]).query)
    assert query["line"] == ["a1-b1"] and query["position"] == ["2x2.0.0.b"]
    response = client.get(response["Location"] + "&edge=a1-a2")
    second = response["Location"]
    assert parse_qs(urlparse(second).query)["line"] == ["a1-b1,a1-a2"]
    page = settled(client, second)
    board = Board(2, 2)
    board.play("a1-b1")
    board.play("a1-a2")
    assert values_of(page) == {str(e): v for e, v in solver.move_values(board).items()}
    undo = re.search(r'<a class="button secondary" href="([^"]+)"[^>]*>Undo</a>', page)
    assert parse_qs(urlparse(undo.group(1).replace("&amp;", "&")).query)["line"] == ["a1-b1"]


def test_an_illegal_edge_or_a_forged_key_gets_a_plain_message(client):
    page = client.get(BOARD + "?size=2x2&line=a1-b1&edge=a1-b1").content.decode()
    assert "a1-b1 is already drawn" in page or "already" in page
    assert 'value="a1-b1"' in page  # the line is kept
    page = client.get(BOARD + "?position=zz.1.0.b").content.decode()
    assert "is not a position key" in page
    response = client.get(BOARD + "?size=2x2&line=a1-b1,zz-top")
    assert response.status_code == 200
    assert "The line stops before zz-top" in response.content.decode()


def test_the_side_to_move_toggle_sets_up_a_position(client):
    page = client.get(BOARD + "?size=2x2").content.decode()
    toggle = re.search(r"href=\"([^\"]+)\"[^>]*>Make it Red(?:&#x27;|')s move</a>", page)
    assert toggle is not None
    url = toggle.group(1).replace("&amp;", "&")
    assert parse_qs(urlparse(url).query)["position"] == ["2x2.0.0.r"]
    page = settled(client, url)
    assert "Values for Red" in page


def test_one_analysis_per_visitor_at_a_time(client):
    from django.core.cache import cache

    from dotsboxes.analysis import board as board_jobs

    # Values found by an earlier run stay in a shared (Redis) cache: start afresh.
    cache.delete_many([board_jobs._key("5x5.0.0.b"), board_jobs._key("4x4.0.0.b")])
    # The empty 5 x 5 board's quick pass can end (0.2 s of CPU) before the next request
    # arrives, so hold the visitor's one job with its deep pass instead: the solver cannot
    # settle that board, so the pass runs to its 5 s cap.  The poll that finds the quick
    # values stored is the one that starts it.
    deadline = time.monotonic() + 30
    while (
        "First values shown; refining them" not in client.get(BOARD + "?size=5x5").content.decode()
    ):
        assert time.monotonic() < deadline, "the quick pass did not come back"
        time.sleep(0.05)
    page = client.get(BOARD + "?size=4x4").content.decode()
    state = re.search(r'id="analysis-board"[^>]*data-state="(\w+)"', page)
    assert "Your previous position is still being analysed" in page, state and state[1]
    assert 'data-state="mine"' in page
    # Once the 5 x 5 pass is done, the next poll of the 4 x 4 board starts its own.
    settled(client, BOARD + "?size=4x4")


def test_a_full_server_says_it_is_busy_and_the_next_poll_tries_again(client, monkeypatch):
    from django.core.cache import cache

    from dotsboxes.analysis import board as board_jobs

    cache.delete(board_jobs._key("3x2.0.0.b"))
    monkeypatch.setattr(board_jobs, "BUSY_LIMIT", 0)  # every board job slot taken
    page = client.get(BOARD + "?size=3x2").content.decode()
    assert "The server is busy analysing other positions" in page
    assert 'data-state="busy"' in page and 'hx-trigger="every 1s"' in page
    monkeypatch.setattr(board_jobs, "BUSY_LIMIT", 4)
    assert "Exact values (solved)." in settled(client, BOARD + "?size=3x2")


def test_the_deep_pass_hard_stop_leaves_room_for_its_nodes_and_the_claim_outlives_it():
    # The deep pass is node-limited (dotsboxes.engine.board_values.DEEP_SOLVER_NODES);
    # its hard stop must leave room for those nodes at the rate the engine plans with
    # (about half what a quiet core does), and a visitor's claim must outlast the pass,
    # or the visitor's next poll would start the same pass again.
    from dotsboxes.analysis import board as board_jobs
    from dotsboxes.analysis import jobs as analysis_jobs
    from dotsboxes.engine import backend_name, board_values, players

    rate = players.SOLVER_RATES[backend_name()]
    assert analysis_jobs.DEEP_SECONDS * rate >= board_values.DEEP_SOLVER_NODES
    assert board_jobs.LEASE_SECONDS > analysis_jobs.DEEP_SECONDS


def test_the_page_polls_quickly_for_the_first_values_then_once_a_second(client):
    from django.core.cache import cache

    from dotsboxes.analysis import board as board_jobs

    # Issue 25: the empty 3 x 3 board is exact within about 0.1 s of CPU, but a page that
    # polled once a second showed it after a second at best.
    cache.delete(board_jobs._key("5x5.0.0.b"))
    url = BOARD + "?size=5x5"
    page = client.get(url).content.decode()  # starts the quick pass (0.2 s of CPU)
    # A position just shown asks once after 150 ms (a warm server has the empty 3 x 3
    # board's values in about 0.1 s), then every 250 ms; a poll's answer, on its timer.
    state = re.search(r'id="analysis-board"[^>]*data-state="(\w+)"', page)
    assert "Working out the values" in page, (state and state[1], values_of(page))
    assert 'hx-trigger="load delay:150ms, every 250ms"' in page
    polled = client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_TRIGGER="analysis-board")
    polled = polled.content.decode()
    if "Working out the values" in polled:  # else the quick pass was already back
        assert 'hx-trigger="every 250ms"' in polled
    deadline = time.monotonic() + 30
    while "First values shown; refining them" not in page:
        assert time.monotonic() < deadline, "the quick pass did not come back"
        time.sleep(0.05)
        page = client.get(url).content.decode()
    assert 'hx-trigger="every 1s"' in page  # the deep pass takes seconds
    settled(client, url)  # leave no pass running
