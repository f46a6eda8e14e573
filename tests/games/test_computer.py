"""The computer moves off the request path, one edge at a time, and only on a current version.

These tests commit for real (``transactional_db``): the computer works in
other threads and processes, which must see the committed game.
"""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from django.db import transaction

from dotsboxes import jobs, leases
from dotsboxes.engine import players
from dotsboxes.games import computer, services
from dotsboxes.games import jobs as game_jobs
from dotsboxes.games.models import Game, Side
from dotsboxes.jobs import pool
from dotsboxes.rules import Board

from .conftest import ALICE, play, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def moves_of(game: Game) -> list[tuple[str, str, bool]]:
    return list(game.moves.order_by("ply").values_list("edge", "side", "by_computer"))


def test_the_computer_answers_a_players_move_by_itself():
    game = services.game_create(
        actor=ALICE, mode=Game.Mode.COMPUTER, width=2, height=2, computer_side=Side.RED
    )
    play(game, "a1-b1")
    wait_for(lambda: game.moves.count() >= 2)
    _edge, side, by_computer = moves_of(game)[1]
    assert (side, by_computer) == ("red", True)
    game.refresh_from_db()
    assert game.board().turn.name == "BLUE"  # casual takes no box here, so the turn passed


def test_choosing_red_makes_the_computer_open_the_game_at_once():
    game = services.game_create(
        actor=ALICE, mode=Game.Mode.COMPUTER, width=3, height=3, computer_side=Side.BLUE
    )
    wait_for(lambda: game.moves.exists())
    assert moves_of(game)[0][1:] == ("blue", True)


def three_in_a_row(turn: str) -> str:
    """3 x 1 boxes with every side drawn but b1-b2, c1-c2 and d1-d2; ``turn`` to move."""
    board = Board(3, 1)
    for edge in ("a1-b1", "b1-c1", "c1-d1", "a2-b2", "b2-c2", "c2-d2", "a1-a2"):
        board.push(board.parse_edge(edge))
    return board.key()[:-1] + turn


def test_the_computer_plays_its_whole_turn_edge_by_edge_when_it_claims_boxes():
    game = services.game_create(
        actor=ALICE,
        mode=Game.Mode.COMPUTER,
        start_key=three_in_a_row("b"),
        computer_side=Side.RED,
    )
    play(game, "d1-d2")  # gives the computer all three boxes
    wait_for(lambda: Game.objects.get(pk=game.pk).status == Game.Status.FINISHED)
    moves = moves_of(game)
    assert [m[1:] for m in moves] == [("blue", False), ("red", True), ("red", True)]
    assert {m[0] for m in moves[1:]} == {"b1-b2", "c1-c2"}
    game.refresh_from_db()
    # One version per edge: the page sees the computer's edges arrive one by one.
    assert (game.red_score, game.result, game.version) == (3, "red", 4)


def test_an_answer_for_an_old_version_is_dropped():
    game = services.game_create(
        actor=ALICE, mode=Game.Mode.COMPUTER, width=2, height=2, computer_side=Side.RED
    )
    # Claim the version the computer would think about, so nothing starts by itself.
    cache.add(game_jobs.claim_key(game.public_id, game.version + 1), 1)
    game = play(game, "a1-b1")
    services.game_undo(game=game, version=game.version, actor=ALICE)
    assert (
        services.game_apply_computer_move(game_id=game.pk, version=game.version, edge="a2-b2")
        is None
    )
    assert game.moves.count() == 0


def test_a_new_game_never_finds_the_claim_of_a_game_whose_id_it_reuses():
    # On SQLite a rolled-back insert gives its id back (in the suite: a test rolled
    # back at its end), so two games can share a database id; a claim the first one
    # left (a dead server's, still within its lease) must not stop the second's computer.
    class RolledBack(Exception):
        pass

    with pytest.raises(RolledBack), transaction.atomic():
        old = services.game_create(
            actor=ALICE, mode=Game.Mode.COMPUTER, width=2, height=2, computer_side=Side.RED
        )
        assert cache.add(game_jobs.claim_key(old.public_id, old.version + 1), 1, timeout=60)
        raise RolledBack
    game = services.game_create(
        actor=ALICE, mode=Game.Mode.COMPUTER, width=2, height=2, computer_side=Side.RED
    )
    if transaction.get_connection().vendor == "sqlite":
        assert game.pk == old.pk  # the case this test is about
    play(game, "a1-b1")
    wait_for(lambda: game.moves.count() >= 2)
    assert moves_of(game)[1][1:] == ("red", True)


def test_a_game_left_waiting_for_the_computer_resumes_when_ensured():
    # As after a server restart: the computer is to move and nobody thinks.
    game = services.game_create(
        actor=ALICE, mode=Game.Mode.COMPUTER, width=2, height=2, computer_side=Side.RED
    )
    cache.add(game_jobs.claim_key(game.public_id, game.version + 1), 1)
    game = play(game, "a1-b1")
    assert game.moves.count() == 1
    # The restart: the claim is gone (it expires shortly after the longest think).
    cache.delete(game_jobs.claim_key(game.public_id, game.version))
    future = computer.ensure(game, game.board())
    assert future is not None
    assert future.result(timeout=15) == 1
    assert moves_of(game)[1][1:] == ("red", True)
    # Asking again at the same version does not start a second job.
    assert computer.start(game) is None


def test_a_claim_nobody_renews_lapses_within_the_lease_and_the_game_resumes(monkeypatch):
    monkeypatch.setattr(leases, "LEASE_SECONDS", 1)  # a shorter lease, to wait less
    game = services.game_create(
        actor=ALICE, mode=Game.Mode.COMPUTER, width=2, height=2, computer_side=Side.RED
    )
    # A server died while thinking about the computer's reply: its claim is in
    # the cache, taken as start() takes it, and no living process renews it.
    dead_claim = game_jobs.claim_key(game.public_id, game.version + 1)
    assert cache.add(dead_claim, 1, timeout=leases.LEASE_SECONDS)
    claimed_at = time.monotonic()
    game = play(game, "a1-b1")
    assert computer.ensure(game, game.board()) is None  # held while the lease runs
    future = wait_for(lambda: computer.ensure(game, game.board()), interval=0.05)
    assert time.monotonic() - claimed_at < leases.LEASE_SECONDS + 1.0
    assert future.result(timeout=15) == 1
    assert moves_of(game)[1][1:] == ("red", True)


# Master to move on 9 x 9 boxes: a position it thinks about for about 3.5 s on
# this project's machine (its node limit, not the clock, ends the search).
SLOW = "9x9.8cab5910d255614324f59b7cace90234499105218034a.0.b"


def test_a_job_thinking_longer_than_the_lease_keeps_its_claim(monkeypatch):
    monkeypatch.setattr(leases, "LEASE_SECONDS", 1)
    game = services.game_create(
        actor=ALICE,
        mode=Game.Mode.COMPUTER,
        start_key=SLOW,
        computer_side=Side.BLUE,
        computer_level="master",
    )  # its commit starts the computer
    time.sleep(leases.LEASE_SECONDS + 0.5)
    assert not game.moves.exists(), "the engine answered within the lease: use a slower position"
    # Past its first lease the job still holds the position: no second job starts.
    assert computer.start(game) is None
    assert computer.ensure(game, game.board()) is None
    wait_for(lambda: game.moves.exists(), timeout=30)
    assert [m[1:] for m in moves_of(game)] == [("blue", True)]
    game.refresh_from_db()
    assert game.board().turn.name == "RED"  # it took no box: no further job runs on


def test_an_engine_worker_keeps_the_masters_table_for_the_game_it_serves(monkeypatch):
    # In a worker the job runs in-line (manage.py engine_worker sets this flag); the
    # computer's move names its game, so the next move there starts from this table.
    monkeypatch.setattr(jobs, "_in_worker", True)
    board = Board(3, 2)
    game_id = 987_654_321
    players._games.pop(game_id, None)
    edge = game_jobs.think(board, level="master", seed=1, game_id=game_id)
    assert edge in board.legal_moves
    kept = players._games[game_id]
    assert len(kept.solver_table(board)) > 0
    assert players.game_memory(game_id) is kept


def test_the_engine_failing_falls_back_to_a_cheaper_level(monkeypatch):
    board = Board(3, 3)

    def broken(*args, **kwargs):
        raise RuntimeError("pool is down")

    monkeypatch.setattr(pool, "submit", broken)  # the engine pool behind the jobs
    edge = game_jobs.think(board, level=players.DEFAULT_LEVEL, seed=1)
    assert not board.is_drawn(edge)


def test_a_hint_still_comes_when_the_engine_pool_fails(monkeypatch):
    from dotsboxes.games import hints

    def broken(*args, **kwargs):
        raise RuntimeError("pool is down")

    monkeypatch.setattr(pool, "submit", broken)
    board = Board(2, 2)
    board.play("a1-b1")
    hint = hints.recommend(board)
    assert not board.is_drawn(hint.edge) and hint.reason


@pytest.mark.skipif(
    "postgresql" not in __import__("django.conf").conf.settings.DATABASES["default"]["ENGINE"],
    reason="the connection pool is PostgreSQL's",
)
def test_a_thinking_computer_holds_no_pooled_connection():
    """Each web process has a small pool; four computer jobs thinking for seconds each
    must not keep four of its connections while requests wait for one."""
    from django.db import connection

    game = services.game_create(
        actor=ALICE,
        mode=Game.Mode.COMPUTER,
        width=9,
        height=9,
        computer_side=Side.BLUE,
        computer_level="master",
    )
    key = game_jobs.claim_key(game.public_id, game.version)

    def in_use() -> int:
        stats = connection.pool.get_stats()
        return stats["pool_size"] - stats.get("pool_available", 0)

    wait_for(lambda: cache.get(key) is not None)  # the job holds its claim: it thinks
    time.sleep(0.5)  # past its first query, into the think
    thinking = in_use()
    assert game.moves.count() == 0  # still thinking (master on 9 x 9 takes seconds)
    wait_for(lambda: game.moves.exists(), timeout=30)
    time.sleep(0.5)  # the job has ended and closed its connection
    # Whatever else this process holds (this test's own connection included), the
    # thinking job added nothing to it.
    assert thinking == in_use()
