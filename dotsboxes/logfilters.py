"""Logging filters: expected races logged as one line, without a traceback."""

from __future__ import annotations

import logging

from django.contrib.sessions.exceptions import SessionInterrupted

#: Errors whose cause is known and not a bug of ours.
EXPECTED = (SessionInterrupted,)


class ExpectedWithoutTraceback(logging.Filter):
    """Drop the traceback of a ``django.request`` record caused by an expected race.

    ``SessionInterrupted``: a session deleted (a sign-out in another tab) while a
    request of the same session was under way.  Django answers 400 with a plain page;
    the three chained tracebacks it logged looked like a failure of ours.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], EXPECTED):
            record.exc_info = None
            record.exc_text = None
        return True
