"""The queue transport: dramatiq over Redis (why dramatiq: docs/JOBS.md).

Imported only when ``ENGINE_QUEUE`` is on, so the embedded default never
imports dramatiq or needs Redis.  One broker per process, made on first use,
with one dramatiq actor per registered job; a lane is a dramatiq queue.

Delivery: dramatiq's Redis broker moves a fetched message to the worker's
unacknowledged set and acknowledges it only after the job returns.  A worker
that dies leaves its messages there; the broker's maintenance (which we run on
every command, see :data:`HEARTBEAT_TIMEOUT_MS`) puts them back on their queue
once the worker's heartbeat is older than that timeout, and another worker
takes them.  Messages are pickled (they carry boards and hints, as the process
pool did): Redis is as trusted as the database.
"""

from __future__ import annotations

import threading
from typing import Any

import dramatiq
from django.conf import settings
from django.db import connections
from dramatiq.brokers.redis import MAINTENANCE_SCALE, RedisBroker
from dramatiq.encoder import PickleEncoder
from dramatiq.results import Results
from dramatiq.results.backends.redis import RedisBackend

# No import of the package itself (it imports this module when it sends): jobs come in
# as arguments.

#: A worker whose heartbeat is older than this is dead and its messages go back on
#: the queue.  Workers beat every HEARTBEAT_SECONDS (dotsboxes.jobs.worker), even
#: in the middle of a long job.
HEARTBEAT_TIMEOUT_MS = 1500
HEARTBEAT_SECONDS = 0.3
#: How long a result waits in Redis for the process that asked (hints, moves).
RESULT_TTL_MS = 60_000

_lock = threading.Lock()
_broker: RedisBroker | None = None
_actors: dict[str, dramatiq.Actor] = {}
running = 0  # jobs this process is running now (the worker's health key says busy)
beat: Any = None  # set by the worker: writes its health key (called as a job starts too)


def namespace() -> str:
    """The Redis key prefix of the queues (``ENGINE_QUEUE_NAMESPACE``, default "dotsboxes")."""
    return settings.ENGINE_QUEUE_NAMESPACE


def broker() -> RedisBroker:
    """This process's broker (made on first use; dramatiq's global broker too)."""
    global _broker
    with _lock:
        if _broker is None:
            encoder = PickleEncoder()
            dramatiq.set_encoder(encoder)
            _broker = RedisBroker(
                url=settings.REDIS_URL,
                namespace=namespace(),
                heartbeat_timeout=HEARTBEAT_TIMEOUT_MS,
                # Maintenance (requeueing dead workers' messages) on every command
                # instead of one in a thousand: it is one ZRANGEBYSCORE, and a
                # waiting player must not wait for luck.
                maintenance_chance=MAINTENANCE_SCALE,
            )
            backend = RedisBackend(url=settings.REDIS_URL, namespace=f"{namespace()}-results")
            backend.encoder = encoder
            _broker.add_middleware(Results(backend=backend, result_ttl=RESULT_TTL_MS))
            dramatiq.set_broker(_broker)
        return _broker


def actor(job: Any) -> dramatiq.Actor:
    """The dramatiq actor of ``job`` (declared on first use)."""
    with _lock:
        found = _actors.get(job.name)
    if found is not None:
        return found
    current = broker()
    with _lock:
        if job.name not in _actors:
            _actors[job.name] = dramatiq.actor(
                _closing(job),
                actor_name=job.name,
                queue_name=job.lane,
                broker=current,
                # A failed job is not tried again by the queue: the computer falls
                # back to a cheap level and a page poll restarts a stalled game; a
                # failed analysis is marked failed.  A *lost* one (worker died) is
                # delivered again regardless: that is acknowledgement, not retry.
                max_retries=0,
                store_results=True,
                time_limit=10 * 60 * 1000,
            )
        return _actors[job.name]


def declare_all(registered: list[Any]) -> None:
    """Declare the actors of ``registered`` jobs (a worker does it before serving)."""
    for job in registered:
        actor(job)


def _closing(job: Any):
    def run(*args: Any, **kwargs: Any) -> Any:
        global running
        running += 1
        if beat is not None:
            beat()  # "busy" shows at once, not at the next heartbeat
        try:
            return job.fn(*args, **kwargs)
        finally:
            running -= 1
            # A worker thread lives for ever: give its database connection back.
            connections.close_all()

    run.__name__ = run.__qualname__ = job.name.replace(".", "_")
    return run


def send(job: Any, args: tuple) -> dramatiq.Message:
    return actor(job).send(*args)


def call(job: Any, args: tuple, kwargs: dict, *, timeout: float) -> Any:
    message = actor(job).send_with_options(args=args, kwargs=kwargs)
    return message.get_result(block=True, timeout=int(timeout * 1000))
