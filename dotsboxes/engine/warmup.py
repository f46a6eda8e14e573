"""An engine process's first work, done before any job asks for it.

The engine pools' workers run :func:`warm_up` as they start (:mod:`dotsboxes.jobs.pool`),
so that neither the first visitor nor a move's time budget pays for the engine's imports
and the default board's tables.  Its own module: it imports the modules the jobs run,
which import :mod:`.players` (keeping it there would make an import circle).
"""

from __future__ import annotations

from dotsboxes.rules import Board

# annotate and board_values are imported for what importing them costs.
from . import annotate, backend_name, board_values  # noqa: F401
from .players import prepare


def warm_up() -> str:
    """Load what engine jobs run and build the default 5 x 5 board's tables; return the
    solver core in use."""
    prepare(Board(5, 5))
    return backend_name()
