"""The site as separate processes: web, engine workers and room clock, on PostgreSQL + Redis.

A uvicorn web process with ``ENGINE_QUEUE=1`` (it starts no engine pool), one
``manage.py engine_worker`` command and one ``manage.py rooms_ticker``, on a
fresh database.  A browser plays a whole game against the master over HTTP;
one engine worker is SIGKILLed during the game.  The game must end with every
edge drawn once, the computer having answered every turn.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import uuid

import pytest
from django.conf import settings

from dotsboxes.jobs.worker import live_workers
from dotsboxes.rules.notation import parse_record
from tests.games.test_restart import Browser, kill, start
from tests.rooms.live import ROOT, drop_database, server_env, worker_ports

pytestmark = pytest.mark.skipif(
    not settings.REDIS_URL or "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="the queue needs Redis, and web and workers one database they share",
)

SLOT = re.compile(r'<g class="slot" data-edge="([a-z]\d+-[a-z]\d+)"')
VERSION = re.compile(r'id="game"[^>]*data-version="(\d+)"')


def spawn(env: dict[str, str], *command: str, log) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", *command],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def test_a_game_against_the_computer_runs_through_separate_worker_processes_and_survives_a_kill(
    tmp_path,
):
    namespace = f"test-{uuid.uuid4().hex[:8]}"
    env = server_env(
        tmp_path, ENGINE_QUEUE="1", ENGINE_QUEUE_NAMESPACE=namespace, ROOMS_TICKER="worker"
    )
    log = open(tmp_path / "processes.log", "a")  # noqa: SIM115 (closed in finally)
    port = worker_ports(1)[0]
    web = workers = clock = None
    try:
        workers = spawn(env, "engine_worker", "--play", "2", "--background", "1", log=log)
        clock = spawn(env, "rooms_ticker", log=log)
        web = start(env, port, tmp_path / "uvicorn.log")
        deadline = time.monotonic() + 60
        while len(live_workers(namespace)) < 3:
            assert time.monotonic() < deadline, (tmp_path / "processes.log").read_text()
            time.sleep(0.1)

        alice = Browser(f"http://127.0.0.1:{port}")
        assert alice.request("/healthz/workers")[0] == 200
        assert alice.request("/play/")[0] == 200
        form = {"mode": "computer", "size": "custom", "width": 3, "height": 3}
        status, headers, _ = alice.request("/play/", form | {"side": "blue", "level": "master"})
        assert status == 302
        game = headers["Location"]
        killed = None
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            page = alice.request(game)[2]
            if "Computer is thinking…" in page:
                if killed is None:  # once: the busy worker if one is seen, else any play worker
                    play = [w for w in live_workers(namespace) if w["lane"] == "play"]
                    victim = next((w for w in play if w["busy"]), play[0])
                    os.kill(victim["pid"], signal.SIGKILL)
                    killed = victim["pid"]
                time.sleep(0.05)
                continue
            slots = SLOT.findall(page)
            if not slots:
                break  # the game is over
            version = VERSION.search(page).group(1)
            status, _, _ = alice.request(game + "move", {"edge": slots[0], "version": version})
            assert status in (200, 302)
        else:
            raise AssertionError("the game did not end within 90 s")

        assert killed is not None
        record = alice.request(game + "record.txt")[2]
        board = parse_record(record).board()  # replayed by the rules: each edge legal, once
        assert board.is_over() and len(board.move_stack) == 24, record
        assert clock.poll() is None and workers.poll() is None  # the clock and supervisor live
        assert alice.request("/healthz")[0] == 200
    finally:
        for process in (web, workers, clock):
            if process is not None:
                kill(process)
        log.close()
        with contextlib.suppress(Exception):
            drop_database(env)
