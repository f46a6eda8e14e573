"""The games app's engine work, as jobs (:mod:`dotsboxes.jobs`, which discovers this module).

- :data:`choose` and :data:`hint`: the engine's pure functions, run in the play
  lane's process pool, in-line in an engine worker, or over the queue.
- :func:`think`: the computer's edge for a position (the :data:`choose` job, or
  a cheap level if the engine fails or overruns).  The computer and the room
  clock both ask for their edges here.
- :data:`computer_move`: think about one version of a game and apply the edge
  if that version still stands.  :mod:`dotsboxes.games.computer` decides when
  to send it and claims the position first.
"""

from __future__ import annotations

import logging

from django.db import connection

from dotsboxes import jobs, leases
from dotsboxes.dbretry import retry_locked
from dotsboxes.engine import players
from dotsboxes.rules import Board, Edge

from .models import Game, Side
from .services import game_apply_computer_move

log = logging.getLogger(__name__)

#: Seconds the engine may overrun its budget before the cheap level answers.
GRACE = 5.0
FALLBACK_LEVEL = "casual" if "casual" in players.LEVELS else players.LEVELS[0]

#: The engine's choice, as a pure job: embedded it runs in the play lane's process
#: pool, in an engine worker in-line, from elsewhere with ENGINE_QUEUE over the queue.
choose = jobs.job(jobs.PLAY, name="engine.choose")(players.choose)
#: The engine's hint (edge and reason), the same way.
hint = jobs.job(jobs.PLAY, name="engine.hint")(players.hint)


def budget_for(level: str, board: Board) -> float:
    """Seconds of thought for ``level`` on ``board`` (the engine's default for the level)."""
    return float(players.default_budget(level, board))


def think(board: Board, *, level: str, seed: int, game_id: int | None = None) -> Edge:
    """The computer's edge for the side to move, computed off this thread's process.

    It is the :data:`choose` job: the engine's process pool, or in-line in an
    engine worker (:mod:`dotsboxes.jobs`).  Blocks the calling thread (never
    call it from a request or the event loop): on a failure or timeout the cheap
    :data:`FALLBACK_LEVEL` answers in-thread.
    ``game_id``: the worker keeps the master's tables for that game between
    moves (a few games per worker, least recently used dropped).
    """
    budget = budget_for(level, board)
    try:
        return choose.call(
            board, level=level, budget=budget, seed=seed, game=game_id, timeout=budget + GRACE
        )
    except Exception:
        log.warning("engine failed or overran at %s; %s answers", board.key(), FALLBACK_LEVEL)
        return players.choose(board, level=FALLBACK_LEVEL, budget=0.05, seed=seed)


def claim_key(public_id: str, version: int) -> str:
    """The claim (:mod:`dotsboxes.leases`) a job holds while it thinks about ``version``.

    It names the game by its public id, which is never reused (SQLite gives a
    rolled-back insert's database id to the next game, which must not find the
    old game's claim), and the database too: sites (or test runs) sharing one
    Redis never collide on games.
    """
    return f"computer:{connection.settings_dict['NAME']}:{public_id}:{version}"


@jobs.job(jobs.PLAY, name="games.computer_move")
def computer_move(public_id: str, version: int, level: str, side: str) -> int:
    """The job: think about ``version`` of the game and apply the edge if it still stands.

    Returns the number of edges drawn (0 or 1).  Safe to run twice (the queue
    delivers a job again whose worker died): the edge is applied under the
    game's version check, so only one run draws it.  When the edge claims a box
    its commit starts the next job (:mod:`dotsboxes.games.computer`).
    """
    key = claim_key(public_id, version)  # claimed by computer.start(); kept until this job ends
    try:
        leases.hold(key)
        game = retry_locked(lambda: Game.objects.filter(public_id=public_id).first())
        if game is None:
            return _gives_up(public_id, version, "the game is gone")
        if game.version != version:
            return _gives_up(public_id, version, f"the game is at version {game.version}")
        if game.status != Game.Status.ACTIVE:
            return _gives_up(public_id, version, f"the game is {game.status}")
        board = game.board()
        if Side.of(board.turn) != side:
            return _gives_up(public_id, version, f"{Side.of(board.turn)} is to move")
        seed = game.pk * 1009 + len(board.move_stack)
        # Thinking takes up to the level's budget (longer on a busy machine): give the
        # pooled connection back meanwhile, so four thinking jobs do not hold four of
        # the process's few while requests wait for one.
        connection.close()
        edge = think(board, level=level, seed=seed, game_id=game.pk)
        result = retry_locked(
            lambda: game_apply_computer_move(game_id=game, version=version, edge=edge, side=side)
        )
        if result is None:
            return _gives_up(public_id, version, f"{edge} was refused (the game moved on)")
        return 1
    except Exception:
        log.exception("computer job failed for game %s at version %s", public_id, version)
        leases.release(key)  # so the next page poll can start it again
        raise
    finally:
        # The move is applied (or the job gave up): no more renewals, and the
        # claim lapses within the lease, by then for a version that is gone.
        leases.let_go(key)
        connection.close()


def _gives_up(public_id: str, version: int, why: str) -> int:
    """Log why a job stops without drawing: a page's poll restarts the computer if
    it is still to move, but a job that quietly drew nothing is how a stalled game
    looks, so every such end leaves a line.  Returns the edges drawn: 0."""
    log.info(
        "computer job for game %s at version %s stops after 0 edge(s): %s",
        public_id,
        version,
        why,
    )
    return 0
