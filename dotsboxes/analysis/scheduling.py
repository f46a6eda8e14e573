"""Fair share of the background lane: which game analyses go to the engine, and when.

Every analysis has an *owner*: the player who asked for it, or, for an automatic
one, the signed-in player of the game (``user:<pk>``, or ``session:<key>`` for
someone not signed in).  An owner has at most :func:`per_player` analyses *in
the lane* (sent to the engine and not finished).  Further ones wait in the
database (``sent_at`` empty) and are sent, oldest first, as the owner's earlier
ones finish.  The lane itself is first in, first out, so one account flooding it
holds at most its share of the queue: another player's analysis waits behind
at most ``per_player()`` of the flooder's, never behind all of them.

:func:`admit` is the one place the share is counted.  It runs in a transaction
that holds a lock on the owner (:func:`_lock_owner`), so two requests of one owner
at once cannot both take the last place.

:func:`worth_analysing` is the rule for automatic analyses (docs/ANALYSIS.md says
why): a finished game played against someone (the computer or another person),
with at least half of its edges drawn, and only while the player's own share is
not full.  Anything else is analysed when a player asks.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from dotsboxes.games.models import Game

from .models import GameAnalysis

#: Seconds without progress after which a queued or running analysis counts as lost
#: (it no longer holds a place in its owner's share).
STALE_SECONDS = 300

IN_LANE = (GameAnalysis.Status.QUEUED, GameAnalysis.Status.RUNNING)


def per_player() -> int:
    """How many analyses of one owner may be in the lane at once (``ANALYSIS_PER_PLAYER``)."""
    return max(1, int(settings.ANALYSIS_PER_PLAYER))


def owner_of_request(request) -> str:
    """The owner key of whoever sent ``request``: the user, else the browser's session."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    session = getattr(request, "session", None)
    if session is not None:
        if not session.session_key:
            session.save()
        return f"session:{session.session_key}"
    return ""


def owner_of_game(game: Game) -> str:
    """The owner of an automatic analysis: the game's signed-in player (blue first)."""
    user_id = game.blue_user_id or game.red_user_id
    return f"user:{user_id}" if user_id else ""


def _lock_owner(owner: str) -> None:
    """Hold the owner's admissions to one at a time until this transaction ends.

    PostgreSQL: a transaction-level advisory lock on the owner's key.  It used to lock
    the owner's user or session row, which locks nothing when there is no such row (a
    session gone, an owner key without a row): two admissions then both took the last
    place (CI saw a flood hold 4 of 2).  SQLite: every write transaction is IMMEDIATE
    (``SQLITE_OPTIONS``), so admissions run one at a time already.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtext(%s))", [f"analysis-owner:{owner}"]
            )


def in_lane(owner: str) -> int:
    """The owner's analyses sent to the engine and still alive (queued or running)."""
    fresh = timezone.now() - timedelta(seconds=STALE_SECONDS)
    return GameAnalysis.objects.filter(
        owner=owner, sent_at__isnull=False, status__in=IN_LANE, updated_at__gte=fresh
    ).count()


def backlog(owner: str) -> int:
    """The owner's analyses not finished: in the lane or waiting for a place."""
    return GameAnalysis.objects.filter(owner=owner, status__in=IN_LANE).count()


def admit(owner: str) -> list[int]:
    """Mark the owner's oldest waiting analyses as sent, up to the share; their pks.

    The caller sends them to the engine once this transaction commits.
    """
    with transaction.atomic():
        _lock_owner(owner)
        # Ownerless rows (made before owners were kept) are not held back.
        free = per_player() - in_lane(owner) if owner else 10**6
        if free <= 0:
            return []
        waiting = GameAnalysis.objects.filter(
            owner=owner, sent_at__isnull=True, status=GameAnalysis.Status.QUEUED
        ).order_by("created_at", "pk")
        pks = list(waiting.values_list("pk", flat=True)[:free])
        now = timezone.now()
        GameAnalysis.objects.filter(pk__in=pks).update(sent_at=now, updated_at=now)
    return pks


def worth_analysing(game: Game) -> bool:
    """True if a finished game should be analysed without anyone asking.

    Played against someone (a same-device game is one screen's practice: the
    button analyses it on demand), at least half of its edges drawn (an early
    resignation or abort leaves little to learn for minutes of engine time),
    and the player's share not already full (a player finishing games faster
    than the engine analyses them gets the first ones; the rest on request).
    """
    if game.status != Game.Status.FINISHED or game.mode == Game.Mode.LOCAL:
        return False
    owner = owner_of_game(game)
    if not owner:
        return False
    if 2 * game.moves.count() < len(game.start_board().legal_moves):
        return False
    return backlog(owner) < per_player()
