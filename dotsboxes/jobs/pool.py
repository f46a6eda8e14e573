"""Process pools for engine work: the embedded transport of :mod:`dotsboxes.jobs`.

Only that package imports this module (tests/test_architecture.py says so):
everything else sends or calls a job, so saving results and handling failures
exist once, whatever carries the work.

The engine never runs in a request thread or on the event loop: callers submit
a function here and attach a callback, or wait on the future with a timeout
from a thread that is not serving anyone.  Workers are started with
``forkserver`` (never ``fork``): forking a threaded server process can copy
held locks into the child.

There are two lanes.  ``submit`` is for a player waiting on the answer (the
computer's move, a hint): a few seconds at most.  ``submit_background`` is for
long analysis (reviewing a whole game takes up to 20 s): it has its own
workers, so two reviews can never hold up every computer opponent on the site.

A background job can report progress ("42 of 60 edges") while it runs: pass
it ``Progress(token)`` as its callback; each call travels over a queue that
the lane's workers inherit, and a thread of the submitting process hands it
to the listener registered for ``token`` (:func:`listen`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

PLAY, BACKGROUND = "play", "background"

_lock = threading.Lock()
_executors: dict[str, ProcessPoolExecutor] = {}


def workers() -> int:
    """Workers per lane: ``ENGINE_WORKERS`` or the number of cores."""
    return max(1, int(os.environ.get("ENGINE_WORKERS") or os.cpu_count() or 2))


_progress_queue: Any = None  # the background lane's queue (in the server and its workers)
_listeners: dict[str, Callable[[int, int], None]] = {}
_flushes: dict[str, threading.Event] = {}
_drain: threading.Thread | None = None


def _worker_init(server_pid: int, progress_queue: Any = None) -> None:
    global _progress_queue
    _progress_queue = progress_queue
    _exit_with(server_pid)
    # Load the engine now, before the first job, so no job's time goes on imports
    # and tables.  A failure here is the first job's to report, not the pool's.
    from dotsboxes.engine.warmup import warm_up

    with contextlib.suppress(Exception):
        warm_up()


def _exit_with(server_pid: int) -> None:
    """Worker initializer: end this worker as soon as the server process is gone.

    Workers are children of multiprocessing's fork server, not of the server,
    and they hold their own task pipe open: after a server is killed they
    would otherwise wait for work forever (or finish a search nobody wants).
    """

    def watch() -> None:
        try:
            handle = os.pidfd_open(server_pid)  # Linux: readable once the process ends
        except ProcessLookupError:
            os._exit(0)
        except (AttributeError, OSError):  # no pidfd here: look once a second instead
            while _alive(server_pid):
                time.sleep(1)
            os._exit(0)
        select.select([handle], [], [])
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-server", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it exists, under another user
    return True


def executor(lane: str = PLAY) -> ProcessPoolExecutor:
    """The process-wide pool of ``lane``, created on first use."""
    with _lock:
        if lane not in _executors:
            context = multiprocessing.get_context("forkserver")
            queue = _queue(context) if lane == BACKGROUND else None
            _executors[lane] = ProcessPoolExecutor(
                max_workers=workers(),
                mp_context=context,
                initializer=_worker_init,
                initargs=(os.getpid(), queue),
            )
        return _executors[lane]


def _submit(lane: str, fn: Callable[..., Any], args: tuple, kwargs: dict) -> Future:
    try:
        return executor(lane).submit(fn, *args, **kwargs)
    except (BrokenProcessPool, RuntimeError):  # a crashed worker: replace the pool once
        with _lock:
            broken = _executors.pop(lane, None)
        if broken is not None:
            broken.shutdown(wait=False, cancel_futures=True)
        return executor(lane).submit(fn, *args, **kwargs)


def submit(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
    """Run ``fn(*args, **kwargs)`` in a worker of the play lane (someone is waiting)."""
    return _submit(PLAY, fn, args, kwargs)


def submit_background(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
    """Run ``fn(*args, **kwargs)`` in a worker of the background lane (long analysis)."""
    return _submit(BACKGROUND, fn, args, kwargs)


def _queue(context: Any) -> Any:
    """The progress queue (made once per server process) and the thread that drains it."""
    global _progress_queue, _drain
    if _progress_queue is None:
        _progress_queue = context.SimpleQueue()
    if _drain is None or not _drain.is_alive():
        _drain = threading.Thread(
            target=_drain_forever, args=(_progress_queue,), name="pool-progress", daemon=True
        )
        _drain.start()
    return _progress_queue


def _drain_forever(queue: Any) -> None:
    while True:
        try:
            token, done, total = queue.get()
        except (EOFError, OSError):  # the queue is gone: the server is stopping
            return
        if done < 0:  # flush()'s marker: every report before it has been handed on
            flushed = _flushes.get(token)
            if flushed is not None:
                flushed.set()
            continue
        listener = _listeners.get(token)
        if listener is not None:
            # A listener's failure must not stop the others' progress.
            with contextlib.suppress(Exception):
                listener(done, total)


def listen(token: str, listener: Callable[[int, int], None] | None) -> None:
    """Call ``listener(done, total)`` for each report of ``Progress(token)`` (None: stop)."""
    if listener is None:
        _listeners.pop(token, None)
    else:
        _listeners[token] = listener


def flush(token: str, timeout: float = 1.0) -> None:
    """Wait until the reports of ``Progress(token)`` sent so far have reached the listener.

    A job's result and its reports travel on different pipes, so the result can
    arrive first; once it has, every report was written before this marker.
    """
    if _progress_queue is None:
        return
    flushed = _flushes.setdefault(token, threading.Event())
    try:
        _progress_queue.put((token, -1, -1))
        flushed.wait(timeout)
    finally:
        _flushes.pop(token, None)


class Progress:
    """A picklable progress callback for a background job: ``Progress(token)(done, total)``.

    In a worker of the background lane it sends the report to the server that
    submitted the job; anywhere else (tests, benchmarks) it does nothing.
    """

    def __init__(self, token: str) -> None:
        self.token = token

    def __call__(self, done: int, total: int) -> None:
        if _progress_queue is not None:
            _progress_queue.put((self.token, done, total))


def shutdown() -> None:
    """Stop the workers of both lanes (tests and server shutdown)."""
    with _lock:
        stopping = list(_executors.values())
        _executors.clear()
    for pool in stopping:
        pool.shutdown(wait=False, cancel_futures=True)
