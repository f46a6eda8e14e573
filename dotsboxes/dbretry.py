"""Run a short database step again when SQLite reports the table locked by a writer."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from django.db import OperationalError

T = TypeVar("T")


def retry_locked(fn: Callable[[], T], attempts: int = 5) -> T:
    """``fn()``, tried up to ``attempts`` times while the database says it is locked.

    SQLite answers a write that meets another writer with an error instead of
    waiting; PostgreSQL waits, so there the first attempt is the only one.
    """
    for attempt in range(attempts):
        try:
            return fn()
        except OperationalError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")
