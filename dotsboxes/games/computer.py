"""The computer player, kept off the request path.

After any change that leaves the computer to move (a player's move, a new
game where it plays Blue, an undo, an import) the core's change event
(:data:`dotsboxes.games.events.game_changed`) reaches :func:`_on_game_changed`,
which calls :func:`start`.  ``start``
sends one edge's worth of work, the :data:`computer_move` job
(:mod:`dotsboxes.jobs`), to a thread of this process or, with ``ENGINE_QUEUE``,
to an engine worker; the job asks the engine (:func:`think`: the process pool,
or in-line in a worker) with the level's time budget and a seed, and applies
the answer with :func:`services.game_apply_computer_move`, which drops it if the
game moved on meanwhile (so a job delivered twice draws one edge).  If the
engine fails or overruns, a cheap level
answers instead, so the game never stalls.  When the computer claims a box
and moves again, that commit starts the next edge the same way: pages see
its edges arrive one by one.

A cache key per (game, version) stops two jobs thinking about the same
position (the cache is Redis when several servers share the work).  It names the
game by its public id, which is never reused: SQLite gives a rolled-back insert's
database id to the next game, which must not find the old game's claim.  When the
cache cannot be reached (a Redis outage) the claim is a database lease instead
(:mod:`dotsboxes.leases`): the game goes on, and nothing here ever turns a
committed move into an error.  The claim
is a short lease (:data:`LEASE_SECONDS`) that a thread of the claiming process
renews while the job is queued or running, however long the engine thinks;
when the job ends it stops renewing, and when the process dies nothing renews,
so the claim lapses within the lease.  A page that finds the computer to move
calls :func:`ensure`, so a game whose server stopped mid-thought resumes a few
seconds later, when it is next opened or polled.

Rooms can call :func:`start` with a ``level`` and the ``side`` to play for a
timed-out turn or a stand-in: for a side that is not the game's computer side
the job plays that side's whole turn.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future

from django.core.cache import cache
from django.db import OperationalError, connection
from django.dispatch import receiver

from dotsboxes import jobs, leases
from dotsboxes.engine import players
from dotsboxes.rules import Board, Edge

from .events import GameChanged, game_changed
from .models import Game, Side
from .services import game_apply_computer_move

log = logging.getLogger(__name__)

#: Seconds the engine may overrun its budget before the cheap level answers.
GRACE = 5.0
#: Seconds a claim on a (game, version) lasts unless renewed: how long a game waits
#: after its server died mid-thought.  Whole seconds (Redis expiries are).
LEASE_SECONDS = 4
#: Seconds between renewals: several per lease, so a process that stalls briefly
#: (a loaded machine) keeps its claims.
RENEW_SECONDS = 0.5
FALLBACK_LEVEL = "casual" if "casual" in players.LEVELS else players.LEVELS[0]

#: The engine's choice, as a pure job: embedded it runs in the play lane's process
#: pool, in an engine worker in-line, from elsewhere with ENGINE_QUEUE over the queue.
choose = jobs.job(jobs.PLAY, name="engine.choose")(players.choose)

# The claims of this process's jobs, queued or running, renewed by one thread.
# One renewer per process rather than the job's own thread, because a job can
# wait in the jobs' thread pool longer than a lease while other games think:
# its claim must hold then too.  It only lives as long as the process does,
# which is the point: a killed server's claims lapse within LEASE_SECONDS.
_held: dict[str, str] = {}  # claim key -> where it is held: "cache" or "db"
_held_lock = threading.Lock()
_renewer: threading.Thread | None = None


def budget_for(level: str, board: Board) -> float:
    """Seconds of thought for ``level`` on ``board`` (the engine's default for the level)."""
    return float(players.default_budget(level, board))


def think(board: Board, *, level: str, seed: int, game_id: int | None = None) -> Edge:
    """The computer's edge for the side to move, computed off this thread's process.

    It is the :data:`choose` job: the engine's process pool, or in-line in an
    engine worker (:mod:`dotsboxes.jobs`).  Blocks the calling thread (never
    call it from a request): on a failure or timeout the cheap
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
    """The cache key a job holds while it thinks about ``version`` of a game.

    It names the database too: sites (or test runs) sharing one Redis never
    collide on games.
    """
    return f"computer:{connection.settings_dict['NAME']}:{public_id}:{version}"


def _claim(public_id: str, version: int, *, renew: bool = True) -> bool:
    """Take the lease on ``version`` of a game and keep renewing it; False if taken.

    ``renew=False``: take it for one lease only (a job sent to the queue: the
    worker that runs it holds it from then on, see :func:`_hold`).
    """
    key = claim_key(public_id, version)
    with _held_lock:
        # This process already holds it (queued or running).  Checked here because
        # the cache and the database do not see each other's claims: when Redis went
        # down or came back since, the other store would hand out a second claim.
        if key in _held:
            return False
    try:
        taken, where = cache.add(key, 1, timeout=LEASE_SECONDS), "cache"
    except Exception:  # Redis is down: the database holds the lease meanwhile
        taken, where = _retry(lambda: leases.acquire(key, LEASE_SECONDS)), "db"
        log.warning(
            "cache unavailable; computer claim %s %s in the database",
            key,
            "taken" if taken else "already held",
        )
    else:
        if taken and _retry(lambda: leases.held(key)):
            # Redis is back, but a server claimed this position in the database
            # during the outage and still renews it: that claim stands.
            _forget_in_cache(key)
            taken = False
    if not taken:
        return False
    if renew:
        _keep(key, where)
    return True


def _hold(key: str) -> None:
    """Hold ``key`` while this process runs its job (a queued job's worker).

    Taken whoever held it: the queue delivers a job again after its worker died,
    and then this is the job that counts.  In the process that claimed it
    (embedded) it is already held and nothing changes.
    """
    with _held_lock:
        if key in _held:
            return
    try:
        cache.set(key, 1, timeout=LEASE_SECONDS)
        where = "cache"
    except Exception:
        _retry(lambda: leases.acquire(key, LEASE_SECONDS))
        where = "db"
    _keep(key, where)


def _keep(key: str, where: str) -> None:
    global _renewer
    with _held_lock:
        _held[key] = where
        if _renewer is None or not _renewer.is_alive():
            _renewer = threading.Thread(target=_renew_forever, name="computer-claims", daemon=True)
            _renewer.start()


def _let_go(key: str) -> None:
    """Stop renewing ``key``: it lapses within the lease (a finished job's position)."""
    with _held_lock:
        _held.pop(key, None)


def _forget_in_cache(key: str) -> None:
    try:
        cache.delete(key)
    except Exception:  # it lapses within the lease anyway
        log.warning("could not give up computer claim %s", key, exc_info=True)


def _release(key: str) -> None:
    """Give ``key`` up at once, so the next page poll can start that position again."""
    with _held_lock:
        where = _held.pop(key, "cache")
    try:
        if where == "db":
            leases.release(key)
        else:
            cache.delete(key)
    except Exception:  # it lapses within the lease anyway
        log.warning("could not release computer claim %s", key, exc_info=True)


def _renew_forever() -> None:
    while True:
        time.sleep(RENEW_SECONDS)
        with _held_lock:
            held = list(_held.items())
        for key, where in held:
            try:
                # A lease that lapsed anyway (the process stalled longer than a
                # lease) is not taken back: another server may have started the
                # position, and only one answer per version is ever applied.
                if where == "db":
                    leases.renew(key, LEASE_SECONDS)
                else:
                    cache.touch(key, LEASE_SECONDS)
            except Exception:  # claims cannot hold: jobs go on, versions keep them apart
                log.warning("could not renew computer claim %s", key, exc_info=True)
        if any(where == "db" for _key, where in held):
            connection.close()  # this thread lives for ever: give the connection back


def is_thinking(game: Game, board: Board) -> bool:
    """True when the game waits for the computer (its own side to move)."""
    return game.status == Game.Status.ACTIVE and game.is_computer(board.turn)


def start(
    game: Game, *, level: str | None = None, side: str | None = None, after_change: bool = False
) -> Future | None:
    """Have the computer draw for ``side`` (default: the game's computer side).

    Returns the job's future (its result is the number of edges drawn), or
    ``None`` when there is nothing to do or a job already thinks about this
    version of the game.  ``after_change``: called for the commit that made this
    version, which nobody can have claimed yet, so a claim found is logged.
    """
    side = side or game.computer_side
    level = level or game.computer_level or players.DEFAULT_LEVEL
    if not side or game.status != Game.Status.ACTIVE or level not in players.LEVELS:
        return None
    if not _claim(game.public_id, game.version, renew=not jobs.queued()):
        if after_change:
            log.warning(
                "computer not started for game %s at version %s: its claim is already held",
                game.public_id,
                game.version,
            )
        return None
    whole_turn = side != game.computer_side
    return computer_move.send(game.public_id, game.version, level, side, whole_turn)


def ensure(game: Game, board: Board) -> Future | None:
    """Start the computer if it is to move and nobody is thinking (e.g. after a restart).

    Pages call it on every view and poll: it never raises (a failure here must not
    turn a page into an error; the next poll tries again)."""
    if not is_thinking(game, board):
        return None
    try:
        return start(game)
    except Exception:
        log.exception("could not start the computer for game %s", game.pk)
        return None


@jobs.job(jobs.PLAY, name="games.computer_move")
def computer_move(public_id: str, version: int, level: str, side: str, whole_turn: bool) -> int:
    """The job: think about ``version`` of the game and apply the edge if it still stands.

    Safe to run twice (the queue delivers a job again whose worker died): the
    edge is applied under the game's version check, so only one run draws it.
    """
    drawn = 0
    key = claim_key(public_id, version)  # taken by start(), renewed until this job ends
    result = None
    try:
        _hold(key)
        while True:
            game = _retry(lambda: Game.objects.filter(public_id=public_id).first())
            if game is None or game.version != version or game.status != Game.Status.ACTIVE:
                if game is None:
                    _gives_up(public_id, version, drawn, "the game is gone")
                elif game.version != version:
                    _gives_up(public_id, version, drawn, f"the game is at version {game.version}")
                else:
                    _gives_up(public_id, version, drawn, f"the game is {game.status}")
                return drawn
            if result is not None:
                # Still the version this job committed: its board, not a second replay.
                game.keep_board(result.board, result.game.computer_flags())
            board = game.board()
            if Side.of(board.turn) != side:
                _gives_up(public_id, version, drawn, f"{Side.of(board.turn)} is to move")
                return drawn
            seed = game.pk * 1009 + len(board.move_stack)
            # Thinking takes up to the level's budget (longer on a busy machine): give the
            # pooled connection back meanwhile, so four thinking jobs do not hold four of
            # the process's few while requests wait for one.
            connection.close()
            edge = think(board, level=level, seed=seed, game_id=game.pk)
            result = _retry(
                lambda edge=edge, version=version, game=game: game_apply_computer_move(
                    game_id=game, version=version, edge=edge, side=side
                )
            )
            if result is None:
                _gives_up(public_id, version, drawn, f"{edge} was refused (the game moved on)")
                return drawn
            drawn += 1
            if not whole_turn:
                return drawn
            # A whole turn goes on at the new version: hold that one now, as
            # start() would, and let the old one lapse.
            version = result.game.version
            if not _claim(public_id, version, renew=True):
                _gives_up(public_id, version, drawn, "another job holds this version")
                return drawn
            _let_go(key)
            key = claim_key(public_id, version)
    except Exception:
        log.exception("computer job failed for game %s at version %s", public_id, version)
        _release(key)  # so the next page poll can start it again
        raise
    finally:
        # The move is applied (or the job gave up): no more renewals, and the
        # claim lapses within the lease, by then for a version that is gone.
        _let_go(key)
        connection.close()


def _gives_up(public_id: str, version: int, drawn: int, why: str) -> None:
    """Log why a job stops before its turn is over: a page's poll restarts the
    computer if it is still to move, but a job that quietly drew nothing is how a
    stalled game looks, so every such end leaves a line."""
    log.info(
        "computer job for game %s at version %s stops after %s edge(s): %s",
        public_id,
        version,
        drawn,
        why,
    )


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
def _on_game_changed(sender, *, change: GameChanged, **kwargs) -> None:
    if change.computer_to_move:
        start(change.game, after_change=True)
