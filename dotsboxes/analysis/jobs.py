"""The analysis app's engine work, as jobs (:mod:`dotsboxes.jobs`, which discovers this module).

- :data:`analyse`: a finished game's annotations (:func:`dotsboxes.engine.annotate.annotate`,
  the background lane), progress reported after every edge, stored on its
  :class:`~dotsboxes.analysis.models.GameAnalysis` row.  :func:`dispatch` sends
  an owner's analyses that have a place in the lane (:mod:`.scheduling`), and
  each one that ends sends its owner's next.
- :data:`board_quick` and :data:`board_deep`: the analysis board's values of one
  position (:mod:`dotsboxes.engine.board_values`), the quick pass on the play lane
  and the deep pass on the background lane, stored in the cache under the key the
  board gives them; then the visitor's claim is released.
  :mod:`dotsboxes.analysis.board` decides when.

Each side-effect job asks the engine through a pure engine job (``.call``: the lane's
process pool embedded, in-line in an engine worker), so a pass runs the same code
however it travels, and storing and failure handling exist once.  All are safe to run
twice (the queue delivers a job again whose worker died).
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future
from typing import Any

from django.core.cache import cache
from django.db import connections
from django.utils import timezone

from dotsboxes import jobs, leases
from dotsboxes.engine import annotate, board_values

from . import scheduling
from .models import GameAnalysis

log = logging.getLogger(__name__)

#: The board's deep pass works for :data:`~dotsboxes.engine.board_values.DEEP_SOLVER_NODES`
#: solver nodes (per core: natively the empty 4 x 3 board's every edge, 8-9 s of one core),
#: so a loaded machine gives the same values later, not worse ones; this is its hard stop
#: in seconds (the time cap per request on an overloaded machine).
DEEP_SECONDS = 30.0
#: Seconds a position's board values stay in the cache.
VALUES_TTL = 60 * 60 * 24

# The engine's parts, pure: the lane's process pool, or in-line in a worker.
annotate_job = jobs.job(jobs.BACKGROUND, name="engine.annotate")(annotate.annotate)
quick_values = jobs.job(jobs.PLAY, name="engine.board_quick")(board_values.quick)
deep_values = jobs.job(jobs.BACKGROUND, name="engine.board_deep")(board_values.deep)

_running: set[int] = set()  # analyses this process has sent and not yet stored
_running_lock = threading.Lock()


# -- a game's analysis ------------------------------------------------------------------


def running() -> int:
    """How many analyses this process has sent and not yet stored (embedded lane)."""
    with _running_lock:
        return len(_running)


def is_running(pk: int) -> bool:
    """True while this process runs (or has queued in its threads) analysis ``pk``."""
    with _running_lock:
        return pk in _running


def dispatch(owner: str) -> None:
    """Send the owner's oldest waiting analyses that have a place in the lane."""
    for pk in scheduling.admit(owner):
        start_analysis(pk)


def start_analysis(pk: int) -> Future | None:
    """Send the :data:`analyse` job for analysis ``pk`` (once per process at a time)."""
    if jobs.queued():  # a worker runs it; a lost one the queue delivers again
        analyse.send(pk)
        return None
    with _running_lock:
        if pk in _running:
            return None
        _running.add(pk)
    try:
        return analyse.send(pk)
    except Exception:
        with _running_lock:
            _running.discard(pk)
        raise


@jobs.job(jobs.BACKGROUND, name="analysis.analyse")
def analyse(pk: int) -> None:
    """The job: analyse the game of analysis ``pk``, reporting progress, and store it.

    Safe to run twice (the queue delivers a job again whose worker died): the
    second run does the work again and stores the same result.
    """
    try:
        analysis = GameAnalysis.objects.select_related("game").filter(pk=pk).first()
        if analysis is None or analysis.status == GameAnalysis.Status.DONE:
            return
        game = analysis.game
        edges = list(game.moves.order_by("ply").values_list("edge", flat=True))
        try:
            result = annotate_job.call(
                game.width,
                game.height,
                edges,
                start_key=game.start_key,
                progress=lambda done, total: report_progress(pk, done, total),
                timeout=None,
            )
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
        _next_of_owner(pk)
        connections.close_all()  # a job thread (or worker) lives on: give the connection back


def _next_of_owner(pk: int) -> None:
    # This analysis left the lane: its owner's next waiting one takes the place.
    try:
        owner = GameAnalysis.objects.filter(pk=pk).values_list("owner", flat=True).first()
        if owner is not None:
            dispatch(owner)
    except Exception:
        log.warning("could not send the next analysis after %s", pk, exc_info=True)


def report_progress(pk: int, done: int, total: int) -> None:
    """Store how far analysis ``pk`` has come (``done`` of ``total`` edges)."""
    # Called in the pool's progress thread (embedded), which lives as long as the process,
    # or in the worker's job thread: give the connection back each time, or that thread
    # keeps one of the pool's few for ever.
    try:
        # Only a row still in the lane: a late report must not bring back a finished or
        # failed one (it would count in its owner's share again, over the cap).
        GameAnalysis.objects.filter(pk=pk, status__in=scheduling.IN_LANE).update(
            status=GameAnalysis.Status.RUNNING, done=done, total=total, updated_at=timezone.now()
        )
    finally:
        if not jobs.in_worker():
            connections.close_all()


# -- the analysis board's passes --------------------------------------------------------


@jobs.job(jobs.PLAY, name="analysis.board_quick")
def board_quick(position: str, values_key: str, claim: str) -> None:
    """The quick pass: first values of ``position`` (someone waits on the page)."""
    _board_pass(quick_values, position, values_key, claim)


@jobs.job(jobs.BACKGROUND, name="analysis.board_deep")
def board_deep(position: str, values_key: str, claim: str) -> None:
    """The deep pass: exact values within its solver nodes (:data:`DEEP_SECONDS` at most)."""
    _board_pass(
        deep_values,
        position,
        values_key,
        claim,
        budget=DEEP_SECONDS,
        nodes=board_values.DEEP_SOLVER_NODES,
    )


def _board_pass(
    engine: jobs.Job, position: str, values_key: str, claim: str, **options: Any
) -> None:
    try:
        try:
            result = engine.call(position, timeout=None, **options)
        except Exception:  # stored as final, so the pages stop asking for it
            log.exception("analysis board values failed for %s", position)
            result = {"level": "deep", "failed": True}
        store_board_values(values_key, result)
    finally:
        leases.release(claim)  # the visitor may start the next pass


def store_board_values(values_key: str, result: dict) -> None:
    """Keep ``result`` under ``values_key`` unless deep values are there already."""
    try:
        current = cache.get(values_key)
        if current is None or current["level"] != "deep":
            cache.set(values_key, result, VALUES_TTL)
    except Exception:  # lost with the outage: the next poll computes them again
        log.warning("analysis board: cache unavailable", exc_info=True)
