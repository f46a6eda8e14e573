"""A process pool for engine work.

The engine never runs in a request thread or on the event loop: callers submit
a function here and attach a callback, or wait on the future with a timeout
from a thread that is not serving anyone.  Workers are started with
``forkserver`` (never ``fork``): forking a threaded server process can copy
held locks into the child.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

_lock = threading.Lock()
_executor: ProcessPoolExecutor | None = None


def workers() -> int:
    """Pool size: ``ENGINE_WORKERS`` or the number of cores."""
    return max(1, int(os.environ.get("ENGINE_WORKERS") or os.cpu_count() or 2))


def executor() -> ProcessPoolExecutor:
    """The process-wide pool, created on first use."""
    global _executor
    with _lock:
        if _executor is None:
            context = multiprocessing.get_context("forkserver")
            _executor = ProcessPoolExecutor(max_workers=workers(), mp_context=context)
        return _executor


def submit(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
    """Run ``fn(*args, **kwargs)`` in a worker process; a broken pool is replaced once."""
    global _executor
    try:
        return executor().submit(fn, *args, **kwargs)
    except (BrokenProcessPool, RuntimeError):
        with _lock:
            if _executor is not None:
                _executor.shutdown(wait=False, cancel_futures=True)
            _executor = None
        return executor().submit(fn, *args, **kwargs)


def shutdown() -> None:
    """Stop the workers (tests and server shutdown)."""
    global _executor
    with _lock:
        if _executor is not None:
            _executor.shutdown(wait=False, cancel_futures=True)
            _executor = None
