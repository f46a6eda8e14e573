"""The studies app's engine work, as jobs (:mod:`dotsboxes.jobs`, which discovers this module).

:data:`check` values every edge of one position a study makes a claim about
(:func:`dotsboxes.engine.board_values.deep` through the pure :data:`values_job`,
the background lane, at most ``STUDY_CHECK_SECONDS``) and stores it on its
:class:`~dotsboxes.studies.models.PositionCheck` row; :mod:`.checks` decides
which positions need it and reads the verdicts.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import connections
from django.utils import timezone

from dotsboxes import jobs
from dotsboxes.engine import board_values

from .models import PositionCheck

log = logging.getLogger(__name__)

_running: set[str] = set()  # positions this process has sent and not yet stored
_running_lock = threading.Lock()


def check_seconds() -> float:
    """Seconds the solver may spend on one position (``STUDY_CHECK_SECONDS``)."""
    return float(settings.STUDY_CHECK_SECONDS)


def is_running(key: str) -> bool:
    """True while this process runs (or has queued in its threads) the check of ``key``."""
    with _running_lock:
        return key in _running


def start_check(key: str) -> None:
    """Send the :data:`check` job for position ``key`` (once per process at a time)."""
    if jobs.queued():
        check.send(key)
        return
    with _running_lock:
        if key in _running:
            return
        _running.add(key)
    try:
        check.send(key)
    except Exception:
        with _running_lock:
            _running.discard(key)
        raise


#: The engine's part, pure: every undrawn edge's value, exact where the solver settles it.
values_job = jobs.job(jobs.BACKGROUND, name="engine.study_values")(board_values.deep)


@jobs.job(jobs.BACKGROUND, name="studies.check")
def check(key: str) -> None:
    """The job: value every edge of position ``key`` and store it (safe to run twice)."""
    try:
        row = PositionCheck.objects.filter(key=key).first()
        if row is None or row.status == PositionCheck.Status.DONE:
            return
        PositionCheck.objects.filter(pk=row.pk).update(
            status=PositionCheck.Status.RUNNING, updated_at=timezone.now()
        )
        budget = check_seconds()
        started = time.perf_counter()
        try:
            result = values_job.call(key, budget=budget, timeout=budget * 3 + 30)
        except Exception:
            log.exception("study check of %s failed", key)
            PositionCheck.objects.filter(pk=row.pk).update(
                status=PositionCheck.Status.FAILED, updated_at=timezone.now()
            )
            return
        PositionCheck.objects.filter(pk=row.pk).update(
            status=PositionCheck.Status.DONE,
            result={k: result[k] for k in ("values", "exact_edges", "exact", "value", "best")},
            seconds=time.perf_counter() - started,
            updated_at=timezone.now(),
        )
    except Exception:  # the database went away (a test ended, a restart): the row goes stale
        log.warning("could not store the study check of %s", key, exc_info=True)
    finally:
        with _running_lock:
            _running.discard(key)
        connections.close_all()
