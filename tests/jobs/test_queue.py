"""Engine jobs on the queue, served by real ``manage.py engine_worker`` processes.

PostgreSQL and Redis only (``ENGINE_QUEUE`` needs Redis, and the worker
processes must see this test's committed rows, which an in-memory SQLite
database would hide).  Each test runs its own workers on a queue namespace of
its own, against this test run's database; this process sends the jobs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from dotsboxes import jobs
from dotsboxes.analysis import board as board_jobs
from dotsboxes.analysis import jobs as analysis_jobs
from dotsboxes.engine import backend_name, players
from dotsboxes.games import jobs as game_jobs
from dotsboxes.games import services
from dotsboxes.games.models import Game, Side
from dotsboxes.jobs import queue
from dotsboxes.jobs.worker import live_workers
from dotsboxes.rules import Board
from tests.games.conftest import ALICE, wait_for

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not settings.REDIS_URL or "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="the queue needs Redis, and its workers a database they share with the test",
    ),
]


@pytest.fixture
def on_the_queue(settings):
    """Turn the queue on in this process, on a namespace of this test's own."""
    settings.ENGINE_QUEUE = True
    settings.ENGINE_QUEUE_NAMESPACE = f"test-{uuid.uuid4().hex[:8]}"
    # The transport keeps one broker per process: start this test with a fresh one.
    queue._broker = None
    queue._actors.clear()
    yield settings.ENGINE_QUEUE_NAMESPACE
    queue._broker = None
    queue._actors.clear()


def start_workers(namespace: str, *, play: int, background: int) -> subprocess.Popen:
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "ENGINE_QUEUE": "1",
        "ENGINE_QUEUE_NAMESPACE": namespace,
        "ROOMS_TICKER": "off",
        "PYTHONUNBUFFERED": "1",
    }
    command = [sys.executable, "manage.py", "engine_worker"]
    command += ["--play", str(play), "--background", str(background)]
    supervisor = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
    wait_for(lambda: len(live_workers()) == play + background, timeout=60)
    return supervisor


def stop(supervisor: subprocess.Popen) -> None:
    os.killpg(supervisor.pid, signal.SIGKILL)
    supervisor.wait(timeout=10)


def computer_moves(game: Game) -> int:
    return game.moves.filter(by_computer=True).count()


def test_a_worker_killed_mid_move_loses_nothing_and_the_move_is_applied_once(on_the_queue):
    supervisor = start_workers(on_the_queue, play=2, background=0)
    try:
        # Master's first edge on 5 x 5 takes about 0.5 s: time to be killed mid-thought
        # (a worker says it is busy as the job starts).
        game = services.game_create(
            actor=ALICE,
            mode=Game.Mode.COMPUTER,
            width=5,
            height=5,
            computer_side=Side.BLUE,
            computer_level="master",
        )  # the computer opens: its job goes on the queue when this commits
        busy = wait_for(lambda: [w for w in live_workers() if w["busy"]], interval=0.01)
        os.kill(busy[0]["pid"], signal.SIGKILL)
        killed = time.monotonic()
        assert computer_moves(game) == 0, "the move was applied before the kill"

        wait_for(lambda: computer_moves(game) >= 1, timeout=15, interval=0.02)
        arrived = time.monotonic() - killed
        time.sleep(1.5)  # a second delivery, had there been one, would have drawn by now
        game.refresh_from_db()
        assert computer_moves(game) == 1 and game.moves.count() == 1
        assert game.version == 1 + 1  # created, then one edge
        print(f"kill -> move: {arrived:.2f} s")
        # The target is 5 s (20 runs on a busy machine: median 2.8 s, max 3.6 s; the
        # figures are in docs/JOBS.md). A test shares CI's two cores with the rest of
        # the suite, so it allows more; a lost or twice-applied move fails above.
        assert arrived <= 10.0, f"the move came {arrived:.2f} s after the kill"
    finally:
        stop(supervisor)


def test_a_flood_of_analyses_does_not_delay_the_computers_move(on_the_queue):
    supervisor = start_workers(on_the_queue, play=1, background=1)
    try:
        edges = [str(e) for e in Board(3, 3).legal_moves]  # a whole 3 x 3 game's edges
        for _ in range(30):
            analysis_jobs.annotate_job.send(3, 3, edges)  # the background lane: seconds each
        # The background worker is busy with the first of them (on a loaded machine it
        # can take a while to start).
        wait_for(lambda: next(w for w in live_workers() if w["lane"] == jobs.BACKGROUND)["busy"])

        game = services.game_create(
            actor=ALICE, mode=Game.Mode.COMPUTER, width=4, height=4, computer_level="master"
        )
        budget = players.default_budget("master", game.board())
        sent = time.monotonic()
        services.game_play_move(actor=ALICE, game=game.pk, edge="a1-b1", version=game.version)
        wait_for(lambda: computer_moves(game) >= 1, timeout=budget + 10, interval=0.005)
        took = time.monotonic() - sent
        print(f"move under a flood of analyses: {took:.3f} s for a {budget} s budget")
        # The target is budget + 0.1 s (measured: 0.27-0.57 s for 0.89 s). Were the move
        # queued behind the analyses, it would wait for 30 of them (seconds each); the
        # margin is for CI's two cores shared with the rest of the suite.
        assert took <= budget + 1.5, f"{took:.3f} s for a {budget} s budget"
    finally:
        stop(supervisor)


def test_a_hint_is_answered_by_a_worker_and_the_health_checks_see_it(on_the_queue, client):
    supervisor = start_workers(on_the_queue, play=1, background=0)
    try:
        from dotsboxes.games import hints

        board = Board(2, 2)
        board.play("a1-b1")
        hint = hints.hint.call(board, budget=0.1, timeout=10)  # no fallback: must be the worker
        assert not board.is_drawn(hint.edge) and hint.reason
        assert game_jobs.choose.call(board, level="casual", budget=0.05, timeout=10) in set(
            board.legal_moves
        )
        # The worker counted those two jobs and how long each waited in the queue and
        # ran: the health key shows the queue's own cost.  (The quick pass below may be
        # answered from values the shared Redis cache already holds: not counted here.)
        (worker,) = wait_for(
            lambda: [w for w in live_workers() if w["lane"] == jobs.PLAY and w["jobs"] >= 2]
        )
        assert 0 <= worker["waited_ms"]["median"] <= worker["waited_ms"]["p95"]
        assert 0 < worker["ran_ms"]["median"] <= worker["ran_ms"]["p95"]
        # The analysis board's quick pass is a play-lane job too; the worker stores it.
        # (A position no other test analyses: values stay in the shared Redis cache.)
        other = Board(4, 1)
        for edge in ("a1-b1", "d2-e2", "c1-c2"):
            other.play(edge)
        position = other.key()
        assert board_jobs.ensure(position, f"visitor-{on_the_queue}") == "working"
        assert wait_for(lambda: board_jobs.values(position))["level"] == "quick"
        # The health checks see the one play worker, and that no analysis worker runs.
        response = client.get(reverse("healthz_workers"))
        assert response.status_code == 503
        assert response.json()["workers"] == {"play": 1, "background": 0}
        assert response.json()["backends"] == [backend_name()]  # the worker's solver core
        with pytest.raises(CommandError, match="no live engine worker for: background"):
            call_command("engine_workers")
    finally:
        stop(supervisor)
