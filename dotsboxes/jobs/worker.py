"""An engine worker process: serves one lane's queue, one job at a time.

``manage.py engine_worker`` starts one such process per engine slot (see the
command).  Each process runs a dramatiq ``Worker`` with one thread and a
prefetch of one, so a message never waits in a busy process while another is
idle, and the play lane has processes of its own: a flood of analyses can
only fill the background lane's processes, never delay a computer's move.

Every :data:`queue.HEARTBEAT_SECONDS` a thread (1) sends dramatiq's broker a
command, which is what refreshes this worker's heartbeat there (dramatiq only
beats when it fetches, and a worker busy with its one prefetched message does
not fetch: without this a long analysis would look dead and be delivered
twice), and (2) writes this worker's own key, which :func:`live_workers` (the
``engine_workers`` health check) lists.  The key also carries :class:`Timings`:
how long this worker's recent jobs waited in the queue and how long they ran.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import statistics
import threading
import time
from collections import deque

import dramatiq

from dotsboxes.engine import backend_name

log = logging.getLogger(__name__)

#: Seconds a worker's health key outlives its last heartbeat.
ALIVE_SECONDS = 5


class Timings(dramatiq.Middleware):
    """The queue's own cost, as this worker sees it: per job, the milliseconds from
    the send to the start (``waited``: the pick-up, plus any time queued behind other
    jobs) and from the start to the end (``ran``), over the last :attr:`KEEP` jobs.

    The send time is the sender's clock (dramatiq's message timestamp): on several
    machines it needs their clocks in step (NTP), as the leases do anyway."""

    KEEP = 500

    def __init__(self) -> None:
        self.jobs = 0
        self.waited: deque[float] = deque(maxlen=self.KEEP)
        self.ran: deque[float] = deque(maxlen=self.KEEP)
        self._started: dict[str, float] = {}

    def before_process_message(self, broker, message) -> None:
        self.waited.append(max(0.0, time.time() * 1000 - message.message_timestamp))
        self._started[message.message_id] = time.perf_counter()

    def after_process_message(self, broker, message, *, result=None, exception=None) -> None:
        started = self._started.pop(message.message_id, None)
        if started is not None:
            self.jobs += 1
            self.ran.append((time.perf_counter() - started) * 1000)

    after_skip_message = after_process_message

    def summary(self) -> dict:
        def spread(values: deque[float]) -> dict | None:
            if not values:
                return None
            ordered = sorted(values)
            p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
            return {"median": round(statistics.median(ordered), 1), "p95": round(p95, 1)}

        return {"jobs": self.jobs, "waited_ms": spread(self.waited), "ran_ms": spread(self.ran)}


def _health_key(lane: str) -> str:
    from .queue import namespace

    return f"{namespace()}:engine-worker:{lane}:{socket.gethostname()}:{os.getpid()}"


def _redis():
    import redis
    from django.conf import settings

    return redis.Redis.from_url(settings.REDIS_URL)


def live_workers(namespace: str | None = None) -> list[dict]:
    """The engine workers whose heartbeat is fresh (lane, host, pid, busy, started,
    and their :class:`Timings`: jobs, waited_ms, ran_ms).

    ``namespace``: of another site's queues (default: this one's).
    """
    from .queue import namespace as ours

    client = _redis()
    found = []
    for key in client.scan_iter(match=f"{namespace or ours()}:engine-worker:*", count=500):
        value = client.get(key)
        if value:
            found.append(json.loads(value))
    return sorted(found, key=lambda w: (w["lane"], w["host"], w["pid"]))


def serve(lane: str) -> None:
    """Serve ``lane`` until SIGTERM or SIGINT (then finish the job in hand)."""
    from . import LANES
    from . import queue as transport

    if lane not in LANES:
        raise ValueError(f"unknown lane {lane!r}")
    import dotsboxes.jobs as jobs

    jobs._in_worker = True
    registered = jobs.discover()  # done when the apps were ready; cheap to ask again
    broker = transport.broker()
    transport.declare_all(list(registered.values()))
    timings = Timings()
    broker.add_middleware(timings)
    if lane != jobs.PLAY:
        os.nice(10)  # analyses yield the machine's cores to the play lane
    worker = dramatiq.Worker(broker, queues={lane}, worker_threads=1, worker_timeout=100)
    worker.queue_prefetch = 1
    worker.start()
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    started = time.time()
    key = _health_key(lane)
    client = _redis()
    log.info("engine worker %s serving the %s lane", os.getpid(), lane)

    def write_health_key() -> None:
        health = {
            "lane": lane,
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "busy": transport.running > 0,
            "backend": backend_name(),
            "started": started,
            **timings.summary(),
        }
        client.set(key, json.dumps(health), ex=ALIVE_SECONDS)

    transport.beat = write_health_key
    try:
        while not stop.wait(transport.HEARTBEAT_SECONDS):
            try:
                broker.do_qsize(lane)  # dramatiq's heartbeat (and its maintenance)
                write_health_key()
            except Exception:  # Redis away: dramatiq reconnects, and so do we
                log.warning("engine worker heartbeat failed", exc_info=True)
    finally:
        client.delete(key)
        worker.stop(timeout=60_000)
