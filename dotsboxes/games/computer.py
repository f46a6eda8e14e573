"""The computer player, kept off the request path.

After any change that leaves the computer to move (a player's move, a new
game where it plays Blue, an undo, an import) :data:`services.game_changed`
reaches :func:`_on_game_changed`, which calls :func:`start`.  ``start``
hands one edge's worth of work to a small thread pool; that thread submits
``players.choose`` to the engine's process pool (:mod:`dotsboxes.engine.pool`)
with the level's time budget and a seed, waits for it, and applies the
answer with :func:`services.game_apply_computer_move`, which drops it if the
game moved on meanwhile.  If the pool fails or overruns, a cheap level
answers instead, so the game never stalls.  When the computer claims a box
and moves again, that commit starts the next edge the same way: pages see
its edges arrive one by one.

A cache key per (game, version) stops two jobs thinking about the same
position (the cache is Redis when several servers share the work).  A page
that finds the computer to move calls :func:`ensure`, so a game whose server
stopped mid-thought resumes when it is next opened.

Rooms can call :func:`start` with a ``level`` and the ``side`` to play for a
timed-out turn or a stand-in: for a side that is not the game's computer side
the job plays that side's whole turn.
"""

from __future__ import annotations

import logging
import math
import time
from concurrent.futures import Future, ThreadPoolExecutor

from django.core.cache import cache
from django.db import OperationalError, connection
from django.dispatch import receiver

from dotsboxes.engine import players, pool
from dotsboxes.rules import Board, Edge

from .models import Game, Side
from .services import game_apply_computer_move, game_changed

log = logging.getLogger(__name__)

#: Seconds the engine may overrun its budget before the cheap level answers.
GRACE = 5.0
#: How long a (game, version) stays claimed beyond the longest the job can take; after
#: that a page may start it again (e.g. when the server that claimed it stopped).
CLAIM_SECONDS = 5
FALLBACK_LEVEL = "casual" if "casual" in players.LEVELS else players.LEVELS[0]

_threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="computer")


def budget_for(level: str, board: Board) -> float:
    """Seconds of thought for ``level`` on ``board`` (the engine's default for the level)."""
    return float(players.default_budget(level, board))


def think(board: Board, *, level: str, seed: int) -> Edge:
    """The computer's edge for the side to move, computed in the engine's process pool.

    Blocks the calling thread (never call it from a request): on a pool
    failure or timeout the cheap :data:`FALLBACK_LEVEL` answers in-thread.
    """
    budget = budget_for(level, board)
    future: Future | None = None
    try:
        future = pool.submit(players.choose, board, level=level, budget=budget, seed=seed)
        return future.result(timeout=budget + GRACE)
    except Exception:
        log.warning("engine failed or overran at %s; %s answers", board.key(), FALLBACK_LEVEL)
        if future is not None:
            future.cancel()
        return players.choose(board, level=FALLBACK_LEVEL, budget=0.05, seed=seed)


def claim_key(game_id: int, version: int) -> str:
    """The cache key a job holds while it thinks about ``version`` of a game.

    It names the database too: sites (or test runs) sharing one Redis never
    collide on game ids.
    """
    return f"computer:{connection.settings_dict['NAME']}:{game_id}:{version}"


def _claim(game_id: int, version: int, seconds: float = CLAIM_SECONDS) -> bool:
    return cache.add(claim_key(game_id, version), 1, timeout=math.ceil(seconds))


def _release(game_id: int, version: int) -> None:
    cache.delete(claim_key(game_id, version))


def is_thinking(game: Game, board: Board) -> bool:
    """True when the game waits for the computer (its own side to move)."""
    return game.status == Game.Status.ACTIVE and game.is_computer(board.turn)


def start(game: Game, *, level: str | None = None, side: str | None = None) -> Future | None:
    """Have the computer draw for ``side`` (default: the game's computer side).

    Returns the job's future (its result is the number of edges drawn), or
    ``None`` when there is nothing to do or a job already thinks about this
    version of the game.
    """
    side = side or game.computer_side
    level = level or game.computer_level or players.DEFAULT_LEVEL
    if not side or game.status != Game.Status.ACTIVE or level not in players.LEVELS:
        return None
    longest = budget_for(level, Board(game.width, game.height)) + GRACE + CLAIM_SECONDS
    if not _claim(game.pk, game.version, longest):
        return None
    whole_turn = side != game.computer_side
    return _threads.submit(_job, game.pk, game.version, level, side, whole_turn)


def ensure(game: Game, board: Board) -> Future | None:
    """Start the computer if it is to move and nobody is thinking (e.g. after a restart)."""
    if is_thinking(game, board):
        return start(game)
    return None


def _job(game_id: int, version: int, level: str, side: str, whole_turn: bool) -> int:
    drawn = 0
    try:
        while True:
            game = _retry(lambda: Game.objects.filter(pk=game_id).first())
            if game is None or game.version != version or game.status != Game.Status.ACTIVE:
                return drawn
            board = game.board()
            if Side.of(board.turn) != side:
                return drawn
            edge = think(board, level=level, seed=game.pk * 1009 + len(board.move_stack))
            result = _retry(
                lambda edge=edge, version=version: game_apply_computer_move(
                    game_id=game_id, version=version, edge=edge, side=side
                )
            )
            if result is None:
                return drawn
            drawn += 1
            if not whole_turn:
                return drawn
            version = result.game.version
    except Exception:
        log.exception("computer job failed for game %s at version %s", game_id, version)
        _release(game_id, version)  # so the next page poll can start it again
        raise
    finally:
        connection.close()


def _retry(fn, attempts: int = 5):
    """Run a short database step again if SQLite reports the table locked by a writer."""
    for attempt in range(attempts):
        try:
            return fn()
        except OperationalError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.05 * (attempt + 1))
    return None


@receiver(game_changed, dispatch_uid="games.computer")
def _on_game_changed(sender, *, game_id: int, active: bool, to_move, computer_side, **kwargs):
    if active and computer_side and to_move == computer_side:
        game = Game.objects.filter(pk=game_id).first()
        if game is not None:
            start(game)
