"""The project's own time source: ``clock.now()`` wherever a deadline is set or checked.

Correspondence deadlines are days away; tests (and the browser test's server
process) must be able to move time forward without sleeping.  In production
this is ``timezone.now()``.  When ``settings.CLOCK_OFFSET_FILE`` names a file
(tests only), the number of seconds written in it is added, so a test process
and the server processes it started share one advanced clock.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.utils import timezone


def _offset_file() -> Path | None:
    name = settings.CLOCK_OFFSET_FILE
    return Path(name) if name else None


def offset() -> timedelta:
    """How far this site's clock is ahead of the wall clock (zero outside tests)."""
    path = _offset_file()
    if path is None:
        return timedelta(0)
    try:
        return timedelta(seconds=float(path.read_text() or 0))
    except (FileNotFoundError, ValueError):
        return timedelta(0)


def now() -> datetime:
    """The current time, as the site sees it (aware, UTC)."""
    return timezone.now() + offset()


def advance(by: timedelta) -> None:
    """Move the site's clock forward (tests only: needs ``CLOCK_OFFSET_FILE``)."""
    path = _offset_file()
    if path is None:
        raise RuntimeError("set CLOCK_OFFSET_FILE to move the clock")
    path.write_text(str((offset() + by).total_seconds()))
