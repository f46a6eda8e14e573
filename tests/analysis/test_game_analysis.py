"""A game's analysis: requested with one button, run in the background lane, stored, reused."""

from __future__ import annotations

import re
import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from dotsboxes.analysis.models import GameAnalysis
from dotsboxes.games.models import Game
from tests.gamefactory import played_game

pytestmark = pytest.mark.django_db(transaction=True)


def wait_done(game: Game, timeout: float = 60.0) -> GameAnalysis:
    deadline = time.monotonic() + timeout
    while True:
        analysis = GameAnalysis.objects.filter(game=game).first()
        if analysis is not None and analysis.finished:
            return analysis
        assert time.monotonic() < deadline, "the analysis did not finish in time"
        time.sleep(0.1)


def test_requesting_an_analysis_stores_it_and_the_replay_shows_graph_and_marks(client):
    game = played_game(width=2, height=2, seed=3, mode=Game.Mode.LOCAL)
    replay = reverse("games:replay", args=[game.public_id])
    page = client.get(replay).content.decode()
    assert "Analyse this game" in page
    response = client.post(
        reverse("analysis:request", args=[game.public_id]), {"next": replay + "?ply=3"}
    )
    assert response.status_code == 302 and response["Location"] == replay + "?ply=3"
    analysis = wait_done(game)
    assert analysis.status == GameAnalysis.Status.DONE
    assert analysis.done == analysis.total == 12
    entries = analysis.result["edges"]
    assert [e["edge"] for e in entries] == list(
        game.moves.order_by("ply").values_list("edge", flat=True)
    )
    assert all(e["exact"] for e in entries)  # a 2 x 2 game is solved from the first edge
    page = client.get(replay + "?ply=3").content.decode()
    assert 'class="value-graph"' in page
    assert page.count('class="graph-point exact') == 13  # 12 edges and the end, all solid
    assert 'aria-current="step"' in page and 'data-ply="3"' in page
    best = entries[3]["best"]
    # The best edge at the current position is drawn as a ghost (dashed violet) edge.
    ghosts = re.findall(r'class="edge highlight" data-edge="([a-z0-9-]+)"', page)
    assert sorted(ghosts) == sorted(best)
    # ... and named in the panel, each name kept on one line ("c3-" / "c4" never).
    best_line = re.search(r'<p class="best-line">.*?</p>', page, re.S)[0]
    assert re.findall(r'<span class="edge-name">([a-z0-9-]+)</span>', best_line) == best
    marked = [e for e in entries if e["mark"]]
    for e in marked:
        assert f"Edge {e['ply']}: {e['edge']}" in page
    # A second request reuses the stored analysis.
    client.post(reverse("analysis:request", args=[game.public_id]), {"next": replay})
    assert GameAnalysis.objects.filter(game=game).count() == 1
    assert GameAnalysis.objects.get(game=game).status == GameAnalysis.Status.DONE


def test_the_turn_list_marks_control_changes_and_double_dealing(client):
    # Random play on 2 x 2 (seed 17): control changes hands at edge 7 and edge 8
    # double-deals; both are tagged in the turn list, not only in the marked edges.
    game = played_game(width=2, height=2, seed=17, mode=Game.Mode.LOCAL)
    replay = reverse("games:replay", args=[game.public_id])
    client.post(reverse("analysis:request", args=[game.public_id]), {"next": replay})
    entries = wait_done(game).result["edges"]
    control = [e["edge"] for e in entries if e["control"]]
    dealt = [e["edge"] for e in entries if e["double_deal"]]
    assert control and dealt
    page = client.get(replay).content.decode()
    log = page[page.index('class="log-list"') : page.index("</ol>", page.index('"log-list"'))]
    assert re.findall(r'class="log-note mark-control" title="([a-z0-9-]+):', log) == control
    assert re.findall(r'class="log-note mark-dd" title="([a-z0-9-]+):', log) == dealt
    assert f"{control[0]}: control changed hands</span>" in log  # read out, not only hovered


def test_while_it_runs_the_replay_shows_how_many_edges_are_done_and_polls(client):
    from dotsboxes.analysis import jobs as analysis_jobs
    from dotsboxes.engine import annotate

    game = played_game(width=2, height=2, seed=3, mode=Game.Mode.LOCAL)
    analysis = GameAnalysis.objects.create(
        game=game, game_version=game.version, engine_version=annotate.VERSION, total=12
    )
    replay = reverse("games:replay", args=[game.public_id])
    page = client.get(replay).content.decode()
    assert "Waiting for the engine" in page
    analysis_jobs.report_progress(analysis.pk, 5, 12)  # what the worker reports after each edge
    page = client.get(replay + "?ply=2").content.decode()
    assert "Analysing: 5 of 12 edges" in page
    assert '<progress max="12" value="5">' in page
    # htmx asks again every second for the same position; without JavaScript the page refreshes.
    assert f'hx-get="{replay}?ply=2" hx-trigger="every 1s" hx-target="#replay"' in page
    assert '<noscript><meta http-equiv="refresh"' in page


def test_an_unfinished_game_cannot_be_analysed(client):
    game = played_game(width=2, height=2, edges=5, mode=Game.Mode.LOCAL)
    response = client.post(reverse("analysis:request", args=[game.public_id]), follow=True)
    assert "Only a finished game can be analysed." in response.content.decode()
    assert not GameAnalysis.objects.exists()


def test_a_private_room_game_is_analysed_only_for_its_players_and_staff(client):
    from dotsboxes.rooms.models import Room

    game = played_game(width=2, height=2, seed=1, mode=Game.Mode.ONLINE, blue_token="seat")
    Room.objects.create(game=game, is_public=False)
    url = reverse("analysis:game", args=[game.public_id])
    assert client.get(url).status_code == 403
    client.post(reverse("analysis:request", args=[game.public_id]))
    assert not GameAnalysis.objects.exists()
    staff = get_user_model().objects.create_user("staff", password="pw12345678", is_staff=True)
    client.force_login(staff)
    assert client.get(url).status_code == 200
    client.post(reverse("analysis:request", args=[game.public_id]))
    assert wait_done(game).status == GameAnalysis.Status.DONE


def test_a_spectator_sees_a_public_room_game_analysed_with_its_turn_list_marked(client):
    from dotsboxes.rooms.models import Room

    # Online rooms have no replay page: the game's analysis page is where its turns are listed.
    game = played_game(width=2, height=2, seed=17, mode=Game.Mode.ONLINE, blue_token="seat")
    Room.objects.create(game=game, is_public=True)
    url = reverse("analysis:game", args=[game.public_id])
    client.post(reverse("analysis:request", args=[game.public_id]), {"next": url})
    entries = wait_done(game).result["edges"]
    page = client.get(url + "?ply=7").content.decode()
    log = page[page.index('class="log-list"') : page.index("</ol>", page.index('"log-list"'))]
    assert log.count('class="log-mark mark-') == sum(1 for e in entries if e["mark"])
    assert log.count('class="log-note mark-control"') == sum(1 for e in entries if e["control"])
    assert 'hx-target="#analysis-game"' in log and 'aria-current="step"' in log


def finish(game: Game) -> None:
    """Draw the last edge through the services, as the play page does."""
    from dotsboxes.games import seats, services

    edge = game.board().legal_moves[0]
    services.game_play_move(
        game=game, edge=str(edge), version=game.version, actor=seats.Actor(token="seat")
    )


def test_a_finished_game_of_a_signed_in_player_is_analysed_by_itself(settings):
    settings.ANALYSIS_AUTO = True
    user = get_user_model().objects.create_user("ana", password="pw12345678")
    fields = {
        "mode": Game.Mode.ONLINE,
        "blue_user": user,
        "blue_token": "seat",
        "red_token": "seat",
    }
    game = played_game(width=2, height=2, seed=5, edges=11, **fields)
    finish(game)
    assert wait_done(game).status == GameAnalysis.Status.DONE
    assert GameAnalysis.objects.get(game=game).result["edges"][-1]["ply"] == 12
    # The site's owner can switch it off.
    settings.ANALYSIS_AUTO = False
    other = played_game(width=2, height=2, seed=6, edges=11, **fields)
    finish(other)
    other.refresh_from_db()
    assert other.status == Game.Status.FINISHED
    time.sleep(0.5)
    assert not GameAnalysis.objects.filter(game=other).exists()


def test_the_analysis_page_works_without_javascript(client):
    game = played_game(width=2, height=2, seed=2, mode=Game.Mode.LOCAL)
    url = reverse("analysis:game", args=[game.public_id])
    client.post(reverse("analysis:request", args=[game.public_id]), {"next": url})
    page = client.get(url).content.decode()
    if "Analysing" in page or "Waiting for the engine" in page:
        assert '<meta http-equiv="refresh"' in page  # plain refresh while it runs
    wait_done(game)
    page = client.get(url + "?ply=4").content.decode()
    assert f'href="/analysis/game/{game.public_id}/?ply=0"' in page  # graph points are links
    assert "Analyse from here" in page
    assert "Values are exact from edge 1 onward." in page


def test_the_staff_report_page_shows_the_analysis_beside_the_reported_position(client):
    from dotsboxes.reports.models import Report

    game = played_game(width=2, height=2, seed=3, mode=Game.Mode.LOCAL)
    report = Report.objects.create(
        game=game,
        width=2,
        height=2,
        ply=4,
        position_key=game.board(ply=4).key(),
        text="Odd move.",
        category="other",
    )
    staff = get_user_model().objects.create_user("judge", password="pw12345678", is_staff=True)
    client.force_login(staff)
    page = client.get(report.get_absolute_url()).content.decode()
    assert "Analyse this game" in page
    client.post(reverse("analysis:request", args=[game.public_id]))
    wait_done(game)
    page = client.get(report.get_absolute_url()).content.decode()
    detail = reverse("reports:detail", args=[report.pk])
    assert 'class="value-graph"' in page
    assert f'href="{detail}?ply=4"' in page  # graph points lead back to this page
    assert 'class="graph-point exact now"' in page


def test_a_progress_report_gives_its_database_connection_back():
    """Progress arrives in the pool's progress thread, which lives as long as the process:
    a connection it kept would be one of the process's few pooled ones, gone for good."""
    from django.db import connection

    from dotsboxes.analysis import jobs as analysis_jobs

    game = played_game(width=2, height=2, seed=3, mode=Game.Mode.LOCAL)
    analysis = GameAnalysis.objects.create(game=game, game_version=game.version, engine_version=1)
    held = []

    def report():
        analysis_jobs.report_progress(analysis.pk, 5, 12)
        held.append(connection.connection is not None)

    thread = threading.Thread(target=report)
    thread.start()
    thread.join()
    assert held == [False]
    analysis.refresh_from_db()
    assert (analysis.status, analysis.done, analysis.total) == ("running", 5, 12)
