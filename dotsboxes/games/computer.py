"""The computer player, kept off the request path.

After any change that leaves the computer to move (a player's move, a new
game where it plays Blue, an undo, an import) the core's change event
(:data:`dotsboxes.games.events.game_changed`) reaches :func:`_on_game_changed`,
which calls :func:`start`.  ``start`` claims the position and sends one edge's
worth of work, the :data:`~dotsboxes.games.jobs.computer_move` job, to a thread
of this process or, with ``ENGINE_QUEUE``, to an engine worker; the job asks the
engine (:func:`~dotsboxes.games.jobs.think`) with the level's time budget and a
seed, and applies the answer with :func:`services.game_apply_computer_move`,
which drops it if the game moved on meanwhile (so a job delivered twice draws
one edge).  If the engine fails or overruns, a cheap level answers instead, so
the game never stalls.  When the computer claims a box and moves again, that
commit starts the next edge the same way: pages see its edges arrive one by one.

A claim per (game, version) (:mod:`dotsboxes.leases`, a short lease in the cache,
or in the database while Redis is down) stops two jobs thinking about the same
position; nothing here ever turns a committed move into an error.  The claim is
renewed while the job is queued or running, however long the engine thinks, and
lapses within the lease when its process dies.  A page that finds the computer to
move calls :func:`ensure`, so a game whose server stopped mid-thought resumes a
few seconds later, when it is next opened or polled.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future

from django.dispatch import receiver

from dotsboxes import jobs, leases
from dotsboxes.engine import players
from dotsboxes.rules import Board

from .events import GameChanged, game_changed
from .jobs import claim_key, computer_move
from .models import Game

log = logging.getLogger(__name__)


def is_thinking(game: Game, board: Board) -> bool:
    """True when the game waits for the computer (its own side to move)."""
    return game.status == Game.Status.ACTIVE and game.is_computer(board.turn)


def start(game: Game, *, after_change: bool = False) -> Future | None:
    """Have the computer draw its next edge.

    Returns the job's future (its result is the number of edges drawn), or
    ``None`` when there is nothing to do or a job already thinks about this
    version of the game.  ``after_change``: called for the commit that made this
    version, which nobody can have claimed yet, so a claim found is logged.
    """
    side, level = game.computer_side, game.computer_level or players.DEFAULT_LEVEL
    if not side or game.status != Game.Status.ACTIVE or level not in players.LEVELS:
        return None
    # Queued, the worker that runs the job holds the claim from then on (leases.hold):
    # here it is taken for one lease only.
    if not leases.claim(claim_key(game.public_id, game.version), keep=not jobs.queued()):
        if after_change:
            log.warning(
                "computer not started for game %s at version %s: its claim is already held",
                game.public_id,
                game.version,
            )
        return None
    return computer_move.send(game.public_id, game.version, level, side)


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


@receiver(game_changed, dispatch_uid="games.computer")
def _on_game_changed(sender, *, change: GameChanged, **kwargs) -> None:
    if change.computer_to_move:
        start(change.game, after_change=True)
