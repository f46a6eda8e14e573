"""Shared fixtures for the whole suite."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time

import pytest

# The servers' garbage-collection policy (dotsboxes/gcpolicy.py) freezes what survives
# a full collection: in a test process that would keep every test's cycles until the
# refreeze.  Off here and in the servers tests start; tests/test_gcpolicy.py tests it.
os.environ.setdefault("SERVER_GC_REFREEZE_SECONDS", "0")
# The servers tests start leave their engine workers to first use, as before: a suite
# starts dozens of servers, most of which never ask the engine anything.
# tests/jobs/test_warm.py tests the warm start.
os.environ.setdefault("ENGINE_WARM_AT_START", "0")


def _own_cache_keys() -> None:
    """On Redis, this test process's cache keys are its own (settings are loaded before
    this file, so the environment cannot say it: the prefix is set on them directly,
    before any cache is made).

    Both xdist workers share one Redis database, and not every key names its database
    (the analysis board's values do; rate-limit counts per address and per user id do
    not), so without a prefix one worker's keys could meet the other's.
    The environment carries the same prefix to the processes a test starts on its own
    database (``engine_worker`` in tests/jobs/test_queue.py), which share its cache;
    servers on databases of their own get theirs (tests/rooms/live.py).
    """
    from django.conf import settings

    cache = settings.CACHES["default"]
    if "redis" in cache["BACKEND"].lower():
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        cache["KEY_PREFIX"] = f"test-{worker}-{os.getpid()}"
        os.environ["CACHE_KEY_PREFIX"] = cache["KEY_PREFIX"]


_own_cache_keys()


@pytest.fixture
def alice(client):
    """A browser session: anonymous players are identified by their session."""
    return client


@pytest.fixture(autouse=True)
def _forget_local_cache():
    """Start every test with an empty process-local cache.

    What one test left there (throttle counts, the bot ids, computer claims) must
    not meet the next.  Computer claims name the game by its public id, so even a
    game that reuses a rolled-back test's database id never finds one; but a test
    should start from nothing.  (A Redis cache is shared by the xdist workers and
    keyed by each worker's own database: it is left alone.)
    """
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()
    yield


@pytest.fixture(autouse=True)
def _rate_limits_off(settings):
    """Rate limits off, except in tests that ask for ``rate_limits``.

    Every test client comes from 127.0.0.1 and, on Redis, every xdist worker shares
    one cache: per-address counts would add up across the whole suite.
    """
    settings.RATE_LIMITS_ENABLED = False


@pytest.fixture
def rate_limits(settings):
    """Rate limits on, counted in a cache of this test's own."""
    import uuid

    settings.RATE_LIMITS_ENABLED = True
    # Counts are per clock window (a minute for most scopes): a test that straddled a
    # minute's end would meet a fresh count half-way and see fewer refusals (CI saw a
    # handshake flood of 8 get 0 of its 3), so each starts early in a minute.
    left = 60 - time.time() % 60
    if left < 8:
        time.sleep(left + 0.1)
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"rate-limits-{uuid.uuid4().hex}",
        },
    }
    return settings


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """SQLite tests use a database file, as the site does, not the in-memory default.

    The computer answers from worker threads with their own connections; the
    in-memory shared-cache database fails them at once with "table is locked"
    where a file in WAL mode waits (busy timeout), exactly as in production.
    ``tmp_path_factory`` is per xdist worker, so workers never share a file.
    """
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        path = tmp_path_factory.mktemp("sqlite") / "test.sqlite3"
        database.setdefault("TEST", {})["NAME"] = str(path)


@pytest.fixture(scope="session", autouse=True)
def _close_connection_pools(django_db_setup, django_db_blocker):
    """Let go of every PostgreSQL session on the test database before it is dropped.

    Worker threads (the computer's replies, live servers) keep pooled connections
    checked out, and closing the pool does not end those: the drop then warned the
    database was "being accessed by other users".  The suite is over, so end them.
    """
    yield
    from django.db import connections

    with django_db_blocker.unblock():
        for connection in connections.all():
            if connection.vendor != "postgresql":
                continue
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            connection.close_pool()


@pytest.fixture(autouse=True)
def _no_automatic_analysis(settings):
    """Finished games are not analysed by themselves in tests (tests/analysis turn it on)."""
    settings.ANALYSIS_AUTO = False


@pytest.fixture(autouse=True)
def _analyses_end_with_their_test():
    """Wait for the analyses a test started in this process before the next test runs.

    The next test's rows reuse the flushed ids (SQLite), and a job left over would
    store into, or report progress on, a row of that test.
    """
    yield
    from dotsboxes.analysis import jobs as analysis_jobs

    deadline = time.monotonic() + 60
    while analysis_jobs.running() and time.monotonic() < deadline:
        time.sleep(0.02)


@pytest.fixture(autouse=True)
def _site_language_after_each_test():
    """Start every test in the site's own language.

    A request through the test client runs in the test's thread, and LocaleMiddleware
    activates the reader's language there without switching back: after a page asked for
    in Chinese, the next test's gettext in that worker would answer in Chinese.
    """
    yield
    from django.utils import translation

    translation.deactivate()


@contextlib.contextmanager
def without_running_loop():
    """Hide the thread's running event loop (if any) for the duration, then put it back.

    Playwright's sync API (the browser tests' session-wide ``playwright`` fixture)
    leaves its loop marked as running in the main thread for the rest of the worker's
    session.  A plain test that later runs in that worker then looks, to asgiref, as
    if it ran on an event loop: every ``async_to_sync`` fails (a room's pushes are
    dropped with a warning, a test that listens to a group fails), though the same
    code runs in a thread with no loop on a real server (a view, the ticker's thread).
    """
    loop = asyncio._get_running_loop()
    if loop is None:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)


@pytest.fixture(autouse=True)
def _no_leftover_event_loop(request):
    """Tests outside the browser run as a server's sync code does: with no loop running
    in their thread, whichever browser tests this worker ran before them."""
    if "playwright" in request.fixturenames:  # a browser test: Playwright's loop is its own
        yield
        return
    with without_running_loop():
        yield
