"""Site-wide pages: the home page and a health check."""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views import defaults
from django.views.decorators.http import require_GET

from dotsboxes import clock, jobs
from dotsboxes.engine import backend_name
from dotsboxes.games.wording import player_name
from dotsboxes.guide.boards import diagram
from dotsboxes.notifications import services as notifications
from dotsboxes.puzzles import services as puzzles
from dotsboxes.tournaments.presenters import featured

logger = logging.getLogger(__name__)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    context = {}
    if request.user.is_authenticated:
        context = {"turns": notifications.your_turn(request.user.pk), "now": clock.now()}
    context["featured_tournament"] = featured()
    daily = puzzles.daily_puzzle(clock.now().date())
    if daily is not None:
        board = puzzles.board_at(daily, 0)
        context["daily"] = daily
        context["daily_svg"] = diagram(board, title=gettext("The daily puzzle"))
        context["daily_turn"] = player_name(board.turn)
    return render(request, "pages/home.html", context)


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """For load balancers: 200 when the database answers, else 503 with a one-line reason.

    A database that is gone is an expected state here, not a server error: one log
    line, no traceback.
    """
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        reason = f"database unavailable: {first}"
        logger.warning("healthz: %s", reason)
        return JsonResponse({"status": "unavailable", "reason": reason}, status=503)
    return JsonResponse({"status": "ok"})


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: the bot API answers JSON (its clients parse it), pages our 500 page."""
    if request.path.startswith("/api/"):
        from dotsboxes.api.auth import server_error as api_error

        return api_error()
    return defaults.server_error(request)


@require_GET
def healthz_workers(request: HttpRequest) -> JsonResponse:
    """For monitors: the live engine workers per lane (503 when a lane has none).

    With ``ENGINE_QUEUE`` off the web processes run the engine themselves: 200.
    ``backend`` (embedded) or ``backends`` (the live workers'): the solver core in
    use, ``native`` (C) or ``python``.  ``warm`` (embedded): whether the engine
    workers this server started as it started are ready (null: it started none).
    """
    if not jobs.queued():
        return JsonResponse(
            {
                "status": "ok",
                "engine": "embedded",
                "backend": backend_name(),
                "warm": jobs.warmed(),
            }
        )
    from dotsboxes.jobs.worker import live_workers

    workers = live_workers()
    lanes = {lane: sum(w["lane"] == lane for w in workers) for lane in jobs.LANES}
    ok = all(lanes.values())
    body = {"status": "ok" if ok else "missing", "engine": "queue", "workers": lanes}
    body["backends"] = sorted({w.get("backend", "unknown") for w in workers})
    return JsonResponse(body, status=200 if ok else 503)
