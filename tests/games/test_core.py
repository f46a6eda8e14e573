"""The game core shared by every mode: its steps, its one change event, one board per request."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from dotsboxes.games import errors, services, steps
from dotsboxes.games.events import Drawn, game_changed
from dotsboxes.games.models import Game, Move, Side
from tests.rooms.conftest import act, browser, join, open_room

from .conftest import ALICE


def _move_reads(queries) -> int:
    return sum(
        1 for q in queries if q["sql"].startswith("SELECT") and 'FROM "games_move"' in q["sql"]
    )


def test_the_event_carries_the_edges_and_boxes_scores_turn_and_result(
    db, changes, django_capture_on_commit_callbacks
):
    game = services.game_create(actor=ALICE, mode=Game.Mode.LOCAL, width=1, height=1)
    with django_capture_on_commit_callbacks(execute=True):
        for edge in ("a1-b1", "a2-b2", "a1-a2"):
            game.refresh_from_db()
            services.game_play_move(game=game, edge=edge, version=game.version, actor=ALICE)
    assert [c.event for c in changes] == ["move"] * 3
    assert changes[-1].drawn == (Drawn("a1-a2", Side.BLUE, (), False),)
    assert changes[-1].to_move == Side.RED and changes[-1].active
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        services.game_play_move(game=game, edge="b2-b1", version=game.version, actor=ALICE)
    last = changes[-1]
    game.refresh_from_db()
    assert last.drawn == (Drawn("b1-b2", Side.RED, (0,), False),)
    assert (last.scores, last.result, last.status) == ((0, 1), "red", "finished")
    assert last.version == game.version and not last.active
    assert len(changes) == 4  # one event per change, none before commit


def test_no_event_is_sent_for_a_change_that_rolls_back(local_game, changes):
    with pytest.raises(RuntimeError), transaction.atomic():
        services.game_play_move(
            game=local_game, edge="a1-b1", version=local_game.version, actor=ALICE
        )
        raise RuntimeError("rolled back")
    assert changes == [] and not local_game.moves.exists()


def test_a_whole_turn_with_an_illegal_edge_draws_nothing(local_game):
    with transaction.atomic():
        game = steps.locked(local_game)
        with pytest.raises(errors.IllegalEdgeError, match="already drawn"):
            steps.draw_edges(game, ["a1-b1", "b1-c1", "a1-b1"], by_computer=True)
        assert game.board().move_stack == [] and game.computer_flags() == []
        with pytest.raises(errors.IllegalEdgeError, match="not an edge"):
            steps.draw_edges(game, ["a1-b1", "z9-z8"], by_computer=True)
        assert game.board().move_stack == []
    assert not Move.objects.filter(game=local_game).exists()


def test_a_whole_turn_draws_every_edge_in_one_change(
    local_game, changes, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        game = steps.locked(local_game)
        drawn = steps.draw_edges(game, ["a1-b1", "a1-a2", "b1-b2", "a2-b2"], by_computer=True)
        steps.commit(game, "timeout", drawn)
    assert [d.edge for d in changes[0].drawn] == ["a1-b1", "a1-a2", "b1-b2", "a2-b2"]
    assert changes[0].drawn[-1].claimed == (0,) and changes[0].scores == (0, 1)
    stored = list(local_game.moves.values_list("ply", "edge", "side", "by_computer"))
    assert stored == [
        (1, "a1-b1", "blue", True),
        (2, "a1-a2", "red", True),
        (3, "b1-b2", "blue", True),
        (4, "a2-b2", "red", True),
    ]


def test_a_move_on_the_play_page_replays_the_moves_once(db, client):
    response = client.post(reverse("games:new"), {"mode": "local", "size": "3x3"})
    game = Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])
    url = reverse("games:move", args=[game.public_id])
    for n, edge in enumerate(("a1-b1", "c3-d3", "a1-a2")):
        with CaptureQueriesContext(connection) as queries:
            response = client.post(
                url, {"edge": edge, "version": game.version + n}, headers={"HX-Request": "true"}
            )
        assert response.status_code == 200 and f'data-edge="{edge}"' in response.content.decode()
        assert _move_reads(queries) == 1


def test_a_room_move_and_its_push_replay_the_moves_once(
    db, changes, django_capture_on_commit_callbacks
):
    alice, bob = browser(), browser()
    room = open_room(alice)
    join(bob, room)
    for player, edge in ((alice, "a1-b1"), (bob, "a2-b2"), (alice, "a3-b3")):
        room.game.refresh_from_db()
        capture = django_capture_on_commit_callbacks(execute=True)
        with CaptureQueriesContext(connection) as queries, capture:
            response = act(player, room, "move", edge=edge)
        assert response.status_code == 200 and edge in response.content.decode()
        assert _move_reads(queries) == 1
    assert [c.event for c in changes] == ["move"] * 3
    assert [c.drawn[0].edge for c in changes] == ["a1-b1", "a2-b2", "a3-b3"]


def test_a_room_push_in_two_languages_reads_the_rooms_sockets_once(transactional_db):
    # transactional: the push is rendered at the commit, and the response reuses it.
    from dotsboxes.rooms.models import Connection

    alice, bob = browser(), browser()
    room = open_room(alice)
    join(bob, room)
    for n, language in enumerate(("en", "zh-hans", "zh-hans")):
        Connection.objects.create(
            room=room, channel_name=f"c{n}", viewer_key=f"c:{n}", name=f"S{n}", language=language
        )
    with CaptureQueriesContext(connection) as queries:
        response = act(alice, room, "move", edge="a1-b1")
    assert response.status_code == 200 and "a1-b1" in response.content.decode()
    socket_reads = [q for q in queries if 'FROM "rooms_connection"' in q["sql"]]
    # One for the push's languages, its spectator list and both languages' renders.
    assert len(socket_reads) == 1, [q["sql"] for q in socket_reads]


def test_a_failing_listener_neither_stops_the_others_nor_fails_the_move(
    local_game, django_capture_on_commit_callbacks, caplog
):
    heard = []

    def broken(sender, *, change, **kwargs):
        raise RuntimeError("listener down")

    def after(sender, *, change, **kwargs):
        heard.append(change.event)

    game_changed.connect(broken)  # connected first: called before ``after``
    game_changed.connect(after)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            result = services.game_play_move(
                game=local_game, edge="a1-b1", version=local_game.version, actor=ALICE
            )
    finally:
        game_changed.disconnect(broken)
        game_changed.disconnect(after)
    assert heard == ["move"]
    assert result.game.moves.count() == 1
    assert "failed on game" in caplog.text and "listener down" in caplog.text


def test_the_computers_move_replays_the_moves_once_in_its_job(transactional_db):
    # Three boxes in a row, Red to move: the job reads the game row once, and the
    # board it commits on is the one it thought about, not a second replay.
    # (transactional: the job closes its connection while it thinks.)
    from dotsboxes.games import jobs as game_jobs

    edges = ["a1-b1", "a2-b2", "b1-c1", "b2-c2", "c1-d1", "c2-d2", "a1-a2"]
    game = services.game_create(actor=ALICE, mode=Game.Mode.LOCAL, width=3, height=1, moves=edges)
    with CaptureQueriesContext(connection) as queries:
        drawn = game_jobs.computer_move(game.public_id, game.version, "casual", Side.RED)
    assert drawn == 1
    game.refresh_from_db()
    assert [m.by_computer for m in game.moves.order_by("ply")] == [False] * 7 + [True]
    assert _move_reads(queries) == 1
