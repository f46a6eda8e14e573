"""Claims: "this process works on that", held for a short lease.

One module for every piece of engine work that must not run twice at once:
the computer's move for a (game, version), and a visitor's analysis-board pass.

- :func:`claim` takes a key for ``seconds`` unless someone holds it.  With
  ``keep`` a thread of this process renews it every :data:`RENEW_SECONDS` until
  :func:`let_go` or :func:`release`, however long the work takes; when the
  process dies nothing renews it and it lapses within the lease.
- :func:`hold` takes a key whoever holds it (a queued job delivered again after
  its worker died is the one that counts now) and keeps it.
- :func:`let_go` stops renewing (the key lapses); :func:`release` gives it up now.
- :func:`holder` says what a key holds (its ``value``).

A claim lives in the cache (Redis when several servers share the work).  When
the cache cannot be reached (a Redis outage) a claim with ``fallback`` is a
database lease instead (:mod:`dotsboxes.leases.database`), so the work goes on;
without it :func:`claim` answers None and the caller says it is busy.  The two
stores do not see each other, so a key this process holds is never claimed
again, and a database lease taken during an outage still stands once Redis is
back.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache import cache
from django.db import connection

from dotsboxes.dbretry import retry_locked

from . import database

log = logging.getLogger(__name__)

#: Seconds a kept claim lasts unless renewed: how long work waits after its server
#: died.  Whole seconds (Redis expiries are).
LEASE_SECONDS = 4
#: Seconds between renewals: several per lease, so a process that stalls briefly
#: (a loaded machine) keeps its claims.
RENEW_SECONDS = 0.5

# The kept claims of this process, renewed by one thread.  One renewer per process
# rather than the work's own thread, because a job can wait for a thread longer
# than a lease while other work runs: its claim must hold then too.
_held: dict[str, str] = {}  # key -> where it is held: "cache" or "db"
_held_lock = threading.Lock()
_renewer: threading.Thread | None = None


def held_here() -> dict[str, str]:
    """The keys this process keeps, and where ("cache" or "db"): for diagnoses."""
    with _held_lock:
        return dict(_held)


def claim(
    key: str,
    *,
    seconds: float | None = None,
    value: Any = 1,
    keep: bool = True,
    fallback: bool = True,
) -> bool | None:
    """Take ``key`` for ``seconds`` (default :data:`LEASE_SECONDS`); False if someone holds it.

    ``keep``: renew it until :func:`let_go` or :func:`release` (otherwise it
    lapses after ``seconds``).  ``fallback``: while the cache cannot be reached,
    take it in the database; without, answer None then.
    """
    seconds = seconds or LEASE_SECONDS
    with _held_lock:
        if key in _held:
            return False
    try:
        taken, where = cache.add(key, value, timeout=seconds), "cache"
    except Exception:
        if not fallback:
            log.warning("cache unavailable; claim %s not taken", key, exc_info=True)
            return None
        taken, where = retry_locked(lambda: database.acquire(key, seconds)), "db"
        log.warning(
            "cache unavailable; claim %s %s in the database",
            key,
            "taken" if taken else "already held",
        )
    else:
        if taken and fallback and retry_locked(lambda: database.held(key)):
            # The cache is back, but a server claimed this key in the database
            # during the outage and still renews it: that claim stands.
            _forget_in_cache(key)
            taken = False
    if taken and keep:
        _keep(key, where)
    return taken


def hold(key: str) -> None:
    """Take ``key`` whoever holds it and keep it (a no-op if this process keeps it)."""
    with _held_lock:
        if key in _held:
            return
    try:
        cache.set(key, 1, timeout=LEASE_SECONDS)
        where = "cache"
    except Exception:
        retry_locked(lambda: database.acquire(key, LEASE_SECONDS))
        where = "db"
    _keep(key, where)


def holder(key: str) -> Any:
    """What ``key`` holds in the cache (None: nobody).  Raises if the cache cannot be reached."""
    return cache.get(key)


def let_go(key: str) -> None:
    """Stop renewing ``key``: it lapses within the lease (work that is done)."""
    with _held_lock:
        _held.pop(key, None)


def release(key: str) -> None:
    """Give ``key`` up at once, so the next asker can take it."""
    with _held_lock:
        where = _held.pop(key, "cache")
    try:
        if where == "db":
            database.release(key)
        else:
            cache.delete(key)
    except Exception:  # it lapses within the lease anyway
        log.warning("could not release claim %s", key, exc_info=True)


def _forget_in_cache(key: str) -> None:
    try:
        cache.delete(key)
    except Exception:  # it lapses within the lease anyway
        log.warning("could not give up claim %s", key, exc_info=True)


def _keep(key: str, where: str) -> None:
    global _renewer
    with _held_lock:
        _held[key] = where
        if _renewer is None or not _renewer.is_alive():
            _renewer = threading.Thread(target=_renew_forever, name="claims", daemon=True)
            _renewer.start()


def _renew_forever() -> None:
    while True:
        time.sleep(RENEW_SECONDS)
        with _held_lock:
            held = list(_held.items())
        for key, where in held:
            try:
                # A lease that lapsed anyway (the process stalled longer than a
                # lease) is not taken back: another server may have started the
                # work, and the work itself must be safe to run twice.
                if where == "db":
                    database.renew(key, LEASE_SECONDS)
                else:
                    cache.touch(key, LEASE_SECONDS)
            except Exception:  # claims cannot hold: the work goes on
                log.warning("could not renew claim %s", key, exc_info=True)
        if any(where == "db" for _key, where in held):
            connection.close()  # this thread lives for ever: give the connection back
