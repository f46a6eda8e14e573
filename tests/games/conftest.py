"""Players and games for the games tests.

Alice and Bob are two browsers (each a session token); Carol is a stranger.
"""

from __future__ import annotations

import time

import pytest
from django.db import OperationalError

from dotsboxes.games import seats, services
from dotsboxes.games.events import game_changed
from dotsboxes.games.models import Game, Side

ALICE = seats.Actor(token="alice-token")
BOB = seats.Actor(token="bob-token")
CAROL = seats.Actor(token="carol-token")


@pytest.fixture
def local_game(db) -> Game:
    """Alice plays both sides of a 3 x 3 game on her device."""
    return services.game_create(actor=ALICE, mode=Game.Mode.LOCAL, width=3, height=3)


@pytest.fixture
def computer_game(db) -> Game:
    """Alice (Blue) against the casual computer on 2 x 2 boxes."""
    return services.game_create(
        actor=ALICE, mode=Game.Mode.COMPUTER, width=2, height=2, computer_side=Side.RED
    )


def play(game: Game, *edges: str, actor: seats.Actor = ALICE) -> Game:
    """Draw edges one by one with the right version each time; return the fresh game."""
    for edge in edges:
        game.refresh_from_db()
        services.game_play_move(game=game, edge=edge, version=game.version, actor=actor)
    game.refresh_from_db()
    return game


def wait_for(predicate, *, timeout: float = 15.0, interval: float = 0.05):
    """Poll ``predicate`` until it returns something truthy (the computer runs in threads)."""
    deadline = time.monotonic() + timeout
    last = "never asked"
    while time.monotonic() < deadline:
        try:
            value = predicate()
            last = repr(value)
        except OperationalError as exc:  # the in-memory test database's table lock: try again
            value, last = None, f"raised {exc!r}"
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(
        f"condition not met within {timeout} s (last answer: {last})\n{_what_threads_do()}"
    )


def _what_threads_do() -> str:
    """Every thread's stack and the computer's held claims: what a timeout was waiting on."""
    import sys
    import threading
    import traceback

    from dotsboxes.leases.models import Lease

    names = {t.ident: t.name for t in threading.enumerate()}
    from django.utils import timezone

    from dotsboxes import jobs, leases

    lines = [f"now {timezone.now()}; computer claims held here: {leases.held_here()}"]
    # Jobs sent but waiting for a thread of their lane show in no stack below.
    waiting = {lane: ex._work_queue.qsize() for lane, ex in jobs._threads.items()}
    lines.append(f"jobs waiting for a thread, by lane: {waiting}")
    from django.db import connection

    if connection.vendor == "postgresql" and connection.pool is not None:
        lines.append(f"connection pool: {connection.pool.get_stats()}")
    try:
        lines.append(f"database leases: {list(Lease.objects.values_list('key', 'expires_at'))}")
    except Exception as exc:  # the diagnosis must not hide the failure
        lines.append(f"database leases unreadable: {exc!r}")
    for ident, frame in sys._current_frames().items():
        stack = "".join(traceback.format_stack(frame)[-6:])
        lines.append(f"--- thread {names.get(ident, ident)}\n{stack}")
    return "\n".join(lines)


@pytest.fixture
def changes():
    """Every change event sent while the test runs."""
    seen = []

    def listener(sender, *, change, **kwargs):
        seen.append(change)

    game_changed.connect(listener)
    yield seen
    game_changed.disconnect(listener)
