"""The one place engine work is dispatched: job functions and their transport.

A job is a plain function registered with :func:`job` and a *lane*: ``PLAY``
(someone waits on it: the computer's move, a hint, the analysis board's quick
pass) or ``BACKGROUND`` (game analyses, the board's deep pass).  Each app keeps
its jobs in its ``jobs`` module (``games/jobs.py``, ``analysis/jobs.py`` …), which
:func:`discover` imports: nothing here lists them.  The same function runs
whatever carries it; only the transport differs, chosen by the ``ENGINE_QUEUE``
setting:

- **Embedded** (the default, and always without ``REDIS_URL``): nothing beyond
  this process.  :meth:`Job.send` runs the job in a thread of this process,
  :meth:`Job.call` runs a pure engine function in the lane's process pool
  (:mod:`dotsboxes.jobs.pool`, which nothing outside this package imports)
  and waits for it.
- **Queue** (``ENGINE_QUEUE=1`` with ``REDIS_URL``): :meth:`Job.send` and
  :meth:`Job.call` put a message on the lane's dramatiq queue in Redis
  (:mod:`dotsboxes.jobs.queue`); engine workers (``manage.py engine_worker``,
  on any machine reaching PostgreSQL and Redis) run it.  In a worker,
  :meth:`Job.call` runs the engine function in-line: the worker process *is*
  the engine process, so web processes need no pool.

Jobs with side effects (applying the computer's move, storing an analysis)
must be safe to run twice: the queue delivers again a job whose worker died
before acknowledging it.  The computer's move is applied under the game's
version check, so a second delivery finds the game moved on and does nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from . import pool

PLAY, BACKGROUND = pool.PLAY, pool.BACKGROUND
LANES = (PLAY, BACKGROUND)
#: The name of the module in which an app keeps its jobs.
JOBS_MODULE = "jobs"

_registry: dict[str, Job] = {}
_in_worker = False  # set by dotsboxes.jobs.worker: engine calls run in this process
_threads: dict[str, ThreadPoolExecutor] = {}
_threads_lock = threading.Lock()
_warming: list[Future] = []  # the warm-up jobs :func:`warm` sent to the workers


def queued() -> bool:
    """True when jobs travel over the queue (``ENGINE_QUEUE`` with ``REDIS_URL``)."""
    from django.conf import settings

    return bool(settings.ENGINE_QUEUE and settings.REDIS_URL)


def in_worker() -> bool:
    """True in an engine worker process (``manage.py engine_worker``)."""
    return _in_worker


def registry() -> dict[str, Job]:
    return dict(_registry)


def discover() -> dict[str, Job]:
    """Import every installed app's ``jobs`` module (Django's ``autodiscover_modules``,
    as the admin finds ``admin`` modules) and return the registry.

    Called when the apps are ready (:class:`~dotsboxes.jobs.apps.JobsConfig`), so every
    process, a worker first of all, knows every job by name before it sends or serves
    one.
    """
    from django.utils.module_loading import autodiscover_modules

    autodiscover_modules(JOBS_MODULE)
    return registry()


def warm() -> None:
    """Start this process's engine workers of both lanes now (each loads the engine as
    it starts: :mod:`.pool`), by sending each lane as many small jobs as it has workers.

    A server calls it as it starts (``ENGINE_WARM_AT_START``, :mod:`dotsboxes.asgi`):
    on a fresh server the first analysis board waited seconds for its workers to
    start and import the engine, where its values take 0.06 s.  Returns at once;
    :func:`warmed` says when those jobs have run.  Nothing to do in an engine
    worker, with the queue (the workers are other processes), or a second time.
    """
    from dotsboxes.engine.warmup import warm_up

    if _in_worker or queued():
        return
    with _threads_lock:
        if _warming:
            return
        for lane in LANES:
            submit = pool.submit if lane == PLAY else pool.submit_background
            _warming.extend(submit(warm_up) for _ in range(pool.workers()))


def warmed() -> bool | None:
    """True once the jobs :func:`warm` sent have run (the workers are up, the engine
    loaded); False before; None when this process was not warmed."""
    with _threads_lock:
        warming = list(_warming)
    if not warming:
        return None
    return all(future.done() for future in warming)


def _thread_pool(lane: str) -> ThreadPoolExecutor:
    # Embedded side-effect jobs wait on the engine's process pool, so threads are
    # cheap: the play lane's eight are four computer moves and the analysis board's
    # four passes (its per-process limit), so a board never makes a move wait.
    with _threads_lock:
        if lane not in _threads:
            size = 8 if lane == PLAY else max(2, pool.workers())
            _threads[lane] = ThreadPoolExecutor(max_workers=size, thread_name_prefix=f"jobs-{lane}")
        return _threads[lane]


class Job:
    """A registered job function; call it directly, or :meth:`send` / :meth:`call` it."""

    def __init__(self, fn: Callable[..., Any], lane: str, name: str) -> None:
        self.fn, self.lane, self.name = fn, lane, name
        self.__doc__ = fn.__doc__

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<Job {self.name} ({self.lane})>"

    def send(self, *args: Any) -> Future | None:
        """Run the job soon, somewhere; nobody waits for its result.

        Embedded: a thread of this process (its future is returned).  Queue: a
        message for any worker of the lane (``None`` is returned).
        """
        if queued():
            from . import queue

            queue.send(self, args)
            return None
        return _thread_pool(self.lane).submit(self.fn, *args)

    def call(
        self,
        *args: Any,
        timeout: float | None,
        progress: Callable[[int, int], None] | None = None,
        **kwargs: Any,
    ) -> Any:
        """Run a pure engine job and wait up to ``timeout`` seconds for its result.

        In a worker: in-line.  Embedded: the lane's engine process pool.  Queue:
        a message, whose result comes back through Redis.  ``progress(done,
        total)`` is passed to the function as its ``progress`` argument, wherever
        it runs (embedded, over the pool's progress queue).  Raises on a failure
        or ``TimeoutError``; callers keep a cheap fallback.
        """
        if _in_worker:
            if progress is not None:
                kwargs["progress"] = progress
            return self.fn(*args, **kwargs)
        if queued():
            from . import queue

            if progress is not None:
                raise ValueError("progress reports are only for jobs run in a worker")
            return queue.call(self, args, kwargs, timeout=timeout or 3600)
        submit = pool.submit if self.lane == PLAY else pool.submit_background
        token = f"job:{id(progress)}:{threading.get_ident()}"
        if progress is not None:
            pool.listen(token, progress)
            kwargs["progress"] = pool.Progress(token)
        future = submit(self.fn, *args, **kwargs)
        try:
            result = future.result(timeout=timeout)
            if progress is not None:
                pool.flush(token)  # every report reaches ``progress`` before we return
            return result
        except BaseException:
            future.cancel()
            raise
        finally:
            if progress is not None:
                pool.listen(token, None)


def job(lane: str, *, name: str | None = None) -> Callable[[Callable[..., Any]], Job]:
    """Register ``fn`` as a job of ``lane`` (``PLAY`` or ``BACKGROUND``)."""
    if lane not in LANES:
        raise ValueError(f"unknown lane {lane!r}: one of {LANES}")

    def register(fn: Callable[..., Any]) -> Job:
        registered = Job(fn, lane, name or f"{fn.__module__}.{fn.__qualname__}")
        _registry[registered.name] = registered
        return registered

    return register
