"""What a tournament page shows, shared by the page and its push."""

from __future__ import annotations

from dotsboxes import clock
from dotsboxes.games.models import Game

from .models import Tournament
from .standings import standings


def live_context(tournament: Tournament) -> dict:
    """The live part: status, countdown target, standings, games in progress, rounds."""
    now = clock.now()
    pairings = tournament.pairings.select_related("game", "blue__user", "red__user").order_by(
        "-round", "-id"
    )
    playing = [p for p in pairings if p.game is not None and p.game.status == Game.Status.ACTIVE]
    finished = [p for p in pairings if p.recorded][:30]
    if tournament.status == Tournament.Status.UPCOMING:
        target = tournament.starts_at
    elif tournament.status == Tournament.Status.RUNNING:
        target = tournament.ends_at
    else:
        target = None
    seconds = int((target - now).total_seconds()) if target else None
    return {
        "t": tournament,
        "rows": standings(tournament),
        "playing": playing,
        "finished": finished,
        "countdown": max(0, seconds) if seconds is not None else None,
        "countdown_target": target,
    }


def lists() -> dict:
    """The list page's three lists."""
    base = Tournament.objects.select_related("created_by")
    return {
        "upcoming": list(base.filter(status=Tournament.Status.UPCOMING).order_by("starts_at")[:30]),
        "running": list(base.filter(status=Tournament.Status.RUNNING).order_by("starts_at")[:30]),
        "finished": list(
            base.filter(status=Tournament.Status.FINISHED).order_by("-finished_at")[:20]
        ),
    }


def featured() -> Tournament | None:
    """The tournament staff feature on the home page, unless it is long over."""
    return (
        Tournament.objects.filter(featured=True)
        .exclude(status=Tournament.Status.FINISHED)
        .order_by("starts_at")
        .first()
    )
