"""Process pools for engine work.

The engine never runs in a request thread or on the event loop: callers submit
a function here and attach a callback, or wait on the future with a timeout
from a thread that is not serving anyone.  Workers are started with
``forkserver`` (never ``fork``): forking a threaded server process can copy
held locks into the child.

There are two lanes.  ``submit`` is for a player waiting on the answer (the
computer's move, a hint): a few seconds at most.  ``submit_background`` is for
long analysis (reviewing a whole game takes up to 20 s): it has its own
workers, so two reviews can never hold up every computer opponent on the site.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
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


def executor(lane: str = PLAY) -> ProcessPoolExecutor:
    """The process-wide pool of ``lane``, created on first use."""
    with _lock:
        if lane not in _executors:
            context = multiprocessing.get_context("forkserver")
            _executors[lane] = ProcessPoolExecutor(max_workers=workers(), mp_context=context)
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


def shutdown() -> None:
    """Stop the workers of both lanes (tests and server shutdown)."""
    with _lock:
        stopping = list(_executors.values())
        _executors.clear()
    for pool in stopping:
        pool.shutdown(wait=False, cancel_futures=True)
