"""The analysis board's engine work: values of a position, computed off the request.

A position's values live in the cache under its key (shared by every server
when the cache is Redis).  A page that finds none starts the quick pass
(:data:`~dotsboxes.analysis.jobs.board_quick`, the play lane: someone waits
for it); once that is stored, the next poll starts the deep pass
(:data:`~dotsboxes.analysis.jobs.board_deep`, exact values within
:data:`~dotsboxes.engine.board_values.DEEP_SOLVER_NODES` solver nodes, the background
lane).  Pages
poll until the deep pass is stored.  The passes are jobs like all engine work
(:mod:`dotsboxes.jobs`): they store the values and release the visitor's claim
wherever they run, a thread of this process or an engine worker.

Limits: one job per visitor at a time (a claim, :mod:`dotsboxes.leases`, holding
the position; released when the job ends and lapsing after :data:`LEASE_SECONDS`
if its server died), and at most :data:`BUSY_LIMIT` board jobs per server
process; a refused start is simply tried again by the next poll, and the page
says why it waits.  With ``ENGINE_QUEUE`` the per-process limit is the workers'
number, so it is not counted here.
"""

from __future__ import annotations

import logging
import threading

from django.core.cache import cache
from django.db import connection

from dotsboxes import jobs, leases

from .jobs import DEEP_SECONDS, board_deep, board_quick

log = logging.getLogger(__name__)

#: A visitor's claim lapses after this long even if its job never reported back (longer
#: than the deep pass's hard stop, or a visitor's next poll would start the pass again).
LEASE_SECONDS = DEEP_SECONDS + 10
#: Board jobs one server process runs at once, all visitors together.
BUSY_LIMIT = 4

_jobs = 0
_jobs_lock = threading.Lock()


def running() -> int:
    """Board passes this process runs now (at most :data:`BUSY_LIMIT`)."""
    with _jobs_lock:
        return _jobs


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
    claim = _visitor_key(visitor)
    try:
        stored = cache.get(_key(position))
        holder = leases.holder(claim)
    except Exception:  # Redis is down: no job starts without its claim; the page polls
        log.warning("analysis board: cache unavailable", exc_info=True)
        return "busy"
    if stored is not None and stored["level"] == "deep":
        return "final"
    if holder is not None:
        return "working" if holder == position else "mine"
    send = (board_quick if stored is None else board_deep).send
    if jobs.queued():
        taken = _take(claim, position)
        if not taken:
            return "busy" if taken is None else "mine"
        send(position, _key(position), claim)
        return "working"
    global _jobs
    with _jobs_lock:
        if _jobs >= BUSY_LIMIT:
            return "busy"
        taken = _take(claim, position)
        if not taken:
            return "busy" if taken is None else "mine"
        _jobs += 1
    try:
        future = send(position, _key(position), claim)
    except Exception:
        _finished()
        leases.release(claim)
        raise
    future.add_done_callback(lambda _future: _finished())
    return "working"


def _take(claim: str, position: str) -> bool | None:
    """The visitor's claim for a job on ``position``; None if the cache cannot be reached."""
    return leases.claim(claim, seconds=LEASE_SECONDS, value=position, keep=False, fallback=False)


def _finished() -> None:
    global _jobs
    with _jobs_lock:
        _jobs -= 1
