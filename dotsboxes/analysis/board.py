"""The analysis board's engine work: values of a position, computed off the request.

A position's values live in the cache under its key (shared by every server
when the cache is Redis).  A page that finds none starts the quick pass
(:func:`dotsboxes.engine.board_values.quick`, the play lane: someone waits
for it); once that is stored, the next poll starts the deep pass (exact
values within :data:`DEEP_SECONDS`, the background lane).  Pages poll until
the deep pass is stored.

Limits: one job per visitor at a time (a lease in the cache, released when
the job ends and lapsing after :data:`LEASE_SECONDS` if its server died), and
at most :data:`BUSY_LIMIT` board jobs per server process; a refused start is
simply tried again by the next poll, and the page says why it waits.

With ``ENGINE_QUEUE`` the passes are jobs (:mod:`dotsboxes.jobs`): the quick
one on the play lane, the deep one on the background lane, each storing its
values and releasing the visitor's lease in the worker; the per-process limit
is then the workers' number, so it is not counted here.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future

from django.core.cache import cache
from django.db import connection

from dotsboxes import jobs
from dotsboxes.engine import board_values, pool

log = logging.getLogger(__name__)

#: Seconds the deep pass may spend on a position (the time cap per request).
DEEP_SECONDS = 5.0
#: A visitor's lease lapses after this long even if its job never reported back.
LEASE_SECONDS = 15
#: Board jobs one server process runs at once, all visitors together.
BUSY_LIMIT = 4
VALUES_TTL = 60 * 60 * 24

_jobs = 0
_jobs_lock = threading.Lock()


def _key(position: str) -> str:
    return f"analysis:board:{connection.settings_dict['NAME']}:{position}"


def _visitor_key(visitor: str) -> str:
    return f"analysis:visitor:{connection.settings_dict['NAME']}:{visitor}"


def values(position: str) -> dict | None:
    """The best values stored for ``position`` (quick or deep), if any.

    None too while the cache cannot be reached (a Redis outage): the page shows
    the board without values and asks again, it never fails.
    """
    try:
        return cache.get(_key(position))
    except Exception:
        log.warning("analysis board: cache unavailable", exc_info=True)
        return None


def ensure(position: str, visitor: str) -> str:
    """Start the next pass for ``position`` if one is due.

    Returns the state for the page: ``"final"`` (deep values stored, no more
    work), ``"working"`` (a pass runs or was just started), ``"mine"`` (this
    visitor's job for another position runs: one at a time) or ``"busy"`` (the
    server runs all the board jobs it will).
    """
    try:
        stored = cache.get(_key(position))
        holder = cache.get(_visitor_key(visitor))
    except Exception:  # Redis is down: no job starts without its lease; the page polls
        log.warning("analysis board: cache unavailable", exc_info=True)
        return "busy"
    if stored is not None and stored["level"] == "deep":
        return "final"
    if holder is not None:
        return "working" if holder == position else "mine"
    if jobs.queued():
        taken = _take(visitor, position)
        if not taken:
            return "busy" if taken is None else "mine"
        (quick_pass if stored is None else deep_pass).send(position, visitor)
        return "working"
    global _jobs
    with _jobs_lock:
        if _jobs >= BUSY_LIMIT:
            return "busy"
        taken = _take(visitor, position)
        if not taken:
            return "busy" if taken is None else "mine"
        _jobs += 1
    try:
        if stored is None:
            future = pool.submit(board_values.quick, position)
        else:
            future = pool.submit_background(board_values.deep, position, budget=DEEP_SECONDS)
    except Exception:
        _finished(visitor)
        raise
    future.add_done_callback(lambda f: _store(position, visitor, f))
    return "working"


def _take(visitor: str, position: str) -> bool | None:
    """The visitor's lease for a job on ``position``; None if the cache cannot be reached."""
    try:
        return cache.add(_visitor_key(visitor), position, LEASE_SECONDS)
    except Exception:
        log.warning("analysis board: cache unavailable", exc_info=True)
        return None


def _let_go(visitor: str) -> None:
    """Free the visitor for its next job (if the cache is down, the lease lapses)."""
    try:
        cache.delete(_visitor_key(visitor))
    except Exception:
        log.warning("analysis board: cache unavailable", exc_info=True)


def _finished(visitor: str) -> None:
    global _jobs
    with _jobs_lock:
        _jobs -= 1
    _let_go(visitor)


def _store(position: str, visitor: str, future: Future) -> None:
    try:
        try:
            result = future.result()
        except Exception:  # stored as final, so the pages stop asking for it
            log.exception("analysis board values failed for %s", position)
            result = {"level": "deep", "failed": True}
        _keep(position, result)
    finally:
        _finished(visitor)


def _keep(position: str, result: dict) -> None:
    current = values(position)
    if current is None or current["level"] != "deep":
        try:
            cache.set(_key(position), result, VALUES_TTL)
        except Exception:  # lost with the outage: the next poll computes them again
            log.warning("analysis board: cache unavailable", exc_info=True)


@jobs.job(jobs.PLAY, name="analysis.board_quick")
def quick_pass(position: str, visitor: str) -> None:
    """The queued quick pass: a worker computes and stores it, then frees the visitor."""
    try:
        _keep(position, board_values.quick(position))
    finally:
        _let_go(visitor)


@jobs.job(jobs.BACKGROUND, name="analysis.board_deep")
def deep_pass(position: str, visitor: str) -> None:
    """The queued deep pass (exact values within :data:`DEEP_SECONDS`)."""
    try:
        try:
            result = board_values.deep(position, budget=DEEP_SECONDS)
        except Exception:  # stored as final, so the pages stop asking for it
            log.exception("analysis board values failed for %s", position)
            result = {"level": "deep", "failed": True}
        _keep(position, result)
    finally:
        _let_go(visitor)
