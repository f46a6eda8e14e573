"""Commands on game analyses: who may ask, start one, store what the engine found.

The work itself is :func:`dotsboxes.engine.annotate.annotate`, run in the
engine's background lane (:func:`dotsboxes.engine.pool.submit_background`),
never in a request.  The row is created in the request's transaction and the
job submitted once it commits; the worker's progress reports reach
:func:`_progress` through the pool's progress queue, and the result is saved
by :func:`_store` when the job ends.  A second request finds the row and
reuses it.

A server can die while its job runs.  Its row then stops moving: an analysis
not heard of for :data:`STALE_SECONDS` (progress is reported after every edge)
that this process is not running is started again by the next request.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future
from datetime import timedelta

from django.conf import settings
from django.db import connections, transaction
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext as _

from dotsboxes.engine import annotate, pool
from dotsboxes.games.events import GameChanged, game_changed
from dotsboxes.games.models import Game
from dotsboxes.games.services import Actor

from .models import GameAnalysis

log = logging.getLogger(__name__)

#: Seconds without progress after which a queued or running analysis counts as lost.
STALE_SECONDS = 300

_running: set[int] = set()  # analyses this process has submitted and not yet stored
_running_lock = threading.Lock()


class AnalysisError(Exception):
    """A request for an analysis that cannot be granted (the message is for people)."""


def refusal(game: Game, actor: Actor, *, staff: bool = False) -> str:
    """Why ``actor`` may not analyse ``game`` ('' when they may)."""
    if game.status != Game.Status.FINISHED:
        return _("Only a finished game can be analysed.")
    if not game.moves.exists():
        return _("No edge was drawn in this game: there is nothing to analyse.")
    if not may_view(game, actor, staff=staff):
        return _("Only the players of a private game and the staff can analyse it.")
    return ""


def may_view(game: Game, actor: Actor, *, staff: bool = False) -> bool:
    """Players, staff, and anyone who may watch the game (a public room, a replay link)."""
    if staff or game.mode != Game.Mode.ONLINE or actor.seats(game):
        return True
    room = getattr(game, "room", None)
    return bool(room is not None and room.is_public)


def current(game: Game) -> GameAnalysis | None:
    """The analysis of the game as it stands (its version, this engine), if any."""
    return GameAnalysis.objects.filter(
        game=game, game_version=game.version, engine_version=annotate.VERSION
    ).first()


def request_analysis(game: Game) -> GameAnalysis:
    """Find or start the analysis of ``game`` (call :func:`refusal` first).

    A done one is reused; a failed one, or one lost with its server, starts again.
    """
    with transaction.atomic():
        analysis, created = GameAnalysis.objects.get_or_create(
            game=game,
            game_version=game.version,
            engine_version=annotate.VERSION,
            defaults={"total": game.moves.count()},
        )
        if not created:
            analysis = GameAnalysis.objects.select_for_update().get(pk=analysis.pk)
        lost = (
            not analysis.finished
            and analysis.updated_at < timezone.now() - timedelta(seconds=STALE_SECONDS)
            and analysis.pk not in _running
        )
        if created or lost or analysis.status == GameAnalysis.Status.FAILED:
            analysis.status, analysis.done = GameAnalysis.Status.QUEUED, 0
            analysis.save()
            pk = analysis.pk
            transaction.on_commit(lambda: _start(pk))
    return analysis


def _start(pk: int) -> Future | None:
    analysis = GameAnalysis.objects.select_related("game").filter(pk=pk).first()
    if analysis is None:
        return None
    game = analysis.game
    edges = list(game.moves.order_by("ply").values_list("edge", flat=True))
    token = f"analysis:{connections['default'].settings_dict['NAME']}:{pk}"
    with _running_lock:
        if pk in _running:
            return None
        _running.add(pk)
    pool.listen(token, lambda done, total: _progress(pk, done, total))
    future = pool.submit_background(
        annotate.annotate,
        game.width,
        game.height,
        edges,
        start_key=game.start_key,
        progress=pool.Progress(token),
    )
    submitter = threading.get_ident()
    future.add_done_callback(
        lambda f: _store(pk, token, f, close=threading.get_ident() != submitter)
    )
    return future


def _progress(pk: int, done: int, total: int) -> None:
    # Called in the pool's progress thread, which lives as long as the process: give the
    # connection back each time, or that thread keeps one of the pool's few for ever.
    try:
        GameAnalysis.objects.filter(pk=pk).exclude(status=GameAnalysis.Status.DONE).update(
            status=GameAnalysis.Status.RUNNING, done=done, total=total, updated_at=timezone.now()
        )
    finally:
        connections.close_all()


def _store(pk: int, token: str, future: Future, *, close: bool = True) -> None:
    pool.listen(token, None)
    try:
        try:
            result = future.result()
        except Exception:  # a crashed worker must not leave the page waiting forever
            log.exception("analysis %s failed", pk)
            GameAnalysis.objects.filter(pk=pk).update(
                status=GameAnalysis.Status.FAILED, updated_at=timezone.now()
            )
            return
        GameAnalysis.objects.filter(pk=pk).update(
            status=GameAnalysis.Status.DONE,
            result=result,
            done=len(result["edges"]),
            total=len(result["edges"]),
            updated_at=timezone.now(),
        )
    except Exception:  # the database went away (a test ended, a restart): the row stays stale
        log.warning("could not store analysis %s", pk, exc_info=True)
    finally:
        with _running_lock:
            _running.discard(pk)
        if close:  # the pool's own thread: do not keep its connection open
            connections.close_all()


@receiver(game_changed, dispatch_uid="analysis.auto")
def _on_game_changed(sender, *, change: GameChanged, **kwargs) -> None:
    """Games of signed-in players are analysed when they finish (``ANALYSIS_AUTO``)."""
    if change.active or not getattr(settings, "ANALYSIS_AUTO", True):
        return
    game = Game.objects.filter(pk=change.game_id, status=Game.Status.FINISHED).first()
    if game is None or not (game.blue_user_id or game.red_user_id):
        return
    if not refusal(game, Actor(), staff=True):
        request_analysis(game)
