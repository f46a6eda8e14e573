"""Commands on game analyses: who may ask, start one, store what the engine found.

The work itself is :func:`dotsboxes.engine.annotate.annotate`, run by the
:data:`~dotsboxes.analysis.jobs.analyse` job of the background lane
(:mod:`dotsboxes.jobs`), never in a request.  The row is created in the
request's transaction and the job sent once it commits.  Embedded, the job waits
in a thread of this process on the engine's background pool, whose progress
reports reach :func:`~dotsboxes.analysis.jobs.report_progress` over the pool's
progress queue; in an engine worker (``ENGINE_QUEUE``) all of it runs in the
worker.  The job stores the result.  A second request finds the row and reuses
it.

A server can die while its job runs.  Its row then stops moving: an analysis
not heard of for :data:`STALE_SECONDS` (progress is reported after every edge)
that this process is not running is started again by the next request (on the
queue, a worker's death needs no request: the queue delivers the job again).

Who goes first is :mod:`.scheduling`'s business: each owner has a fair share of
the background lane, and only games worth it are analysed without being asked.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext as _

from dotsboxes.engine import annotate
from dotsboxes.games.events import GameChanged, game_changed
from dotsboxes.games.models import Game
from dotsboxes.games.seats import Actor

from . import scheduling
from .jobs import dispatch, is_running
from .models import GameAnalysis

log = logging.getLogger(__name__)

#: Seconds without progress after which a queued or running analysis counts as lost.
STALE_SECONDS = scheduling.STALE_SECONDS


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


def request_analysis(game: Game, owner: str = "") -> GameAnalysis:
    """Find or start the analysis of ``game`` for ``owner`` (call :func:`refusal` first).

    A done one is reused; a failed one, or one lost with its server, starts again.
    It goes to the engine when its owner has a place in the lane (:mod:`.scheduling`).
    """
    with transaction.atomic():
        analysis, created = GameAnalysis.objects.get_or_create(
            game=game,
            game_version=game.version,
            engine_version=annotate.VERSION,
            defaults={"total": game.moves.count(), "owner": owner},
        )
        if not created:
            analysis = GameAnalysis.objects.select_for_update().get(pk=analysis.pk)
        lost = (
            not analysis.finished
            and analysis.updated_at < timezone.now() - timedelta(seconds=STALE_SECONDS)
            and not is_running(analysis.pk)
        )
        if created or lost or analysis.status == GameAnalysis.Status.FAILED:
            analysis.status, analysis.done, analysis.sent_at = GameAnalysis.Status.QUEUED, 0, None
            analysis.save()
            owner = analysis.owner
            transaction.on_commit(lambda: dispatch(owner))
    return analysis


@receiver(game_changed, dispatch_uid="analysis.auto")
def _on_game_changed(sender, *, change: GameChanged, **kwargs) -> None:
    """Finished games worth it are analysed without being asked (``ANALYSIS_AUTO``)."""
    if change.active or not settings.ANALYSIS_AUTO:
        return
    game = Game.objects.filter(pk=change.game_id, status=Game.Status.FINISHED).first()
    if game is None or not scheduling.worth_analysing(game):
        return
    if not refusal(game, Actor(), staff=True):
        request_analysis(game, scheduling.owner_of_game(game))
