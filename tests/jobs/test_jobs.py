"""The embedded transport (no ENGINE_QUEUE): the same job functions, run by this process."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from dotsboxes import jobs
from dotsboxes.engine import annotate, backend_name

ROOT = Path(__file__).resolve().parents[2]

ident = jobs.job(jobs.PLAY, name="tests.thread_ident")(threading.get_ident)
pid = jobs.job(jobs.PLAY, name="tests.pid")(os.getpid)
analyse = jobs.job(jobs.BACKGROUND, name="tests.annotate")(annotate.annotate)


def test_a_sent_job_runs_in_another_thread_of_this_process():
    future = ident.send()
    assert future.result(timeout=10) != threading.get_ident()


def test_a_called_engine_job_runs_in_the_engine_pool_not_in_this_process():
    assert pid.call(timeout=60) != os.getpid()
    assert pid() == os.getpid()  # called directly, it is the plain function


def test_a_called_background_job_reports_its_progress_here():
    seen: list[tuple[int, int]] = []
    edges = ["a1-b1", "a2-b2", "a1-a2", "b1-b2"]
    result = analyse.call(1, 1, edges, progress=lambda *report: seen.append(report), timeout=60)
    assert result["players"]["red"]["edges"] == 2
    # Every report has arrived by the time the result is returned, as in a worker.
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_a_job_of_an_unknown_lane_is_refused():
    with pytest.raises(ValueError, match="unknown lane"):
        jobs.job("urgent")(print)


def test_without_the_queue_the_worker_health_check_says_the_engine_is_embedded(db, client):
    assert not jobs.queued()
    response = client.get(reverse("healthz_workers"))
    assert response.status_code == 200 and response.json()["engine"] == "embedded"
    assert response.json()["backend"] == backend_name() in ("native", "python")
    with pytest.raises(CommandError, match="ENGINE_QUEUE=1 and REDIS_URL"):
        call_command("engine_worker")


def test_the_queue_without_redis_is_a_configuration_error():
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env["ENGINE_QUEUE"] = "1"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "ENGINE_QUEUE=1 needs REDIS_URL" in result.stderr
