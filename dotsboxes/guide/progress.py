"""Practice progress: always in the browser session, and for a signed-in
player also in :class:`~dotsboxes.guide.models.ExerciseProgress`.

An entry is ``{"attempts": n, "solved": bool, "first_try": bool}``.  Only the
first correct answer counts: once solved, later answers (a player trying other
moves to see what happens) no longer change the record.
"""

from __future__ import annotations

from django.db import transaction
from django.http import HttpRequest

from .models import ExerciseProgress

SESSION_KEY = "guide_progress"


def _blank() -> dict:
    return {"attempts": 0, "solved": False, "first_try": False}


def _advance(entry: dict, correct: bool) -> dict:
    if entry["solved"]:
        return entry
    attempts = entry["attempts"] + 1
    return {
        "attempts": attempts,
        "solved": correct,
        "first_try": correct and attempts == 1,
    }


def record_attempt(request: HttpRequest, slug: str, *, correct: bool) -> dict:
    """Count one answer to exercise ``slug``; return the updated entry."""
    progress = dict(request.session.get(SESSION_KEY, {}))
    entry = _advance(progress.get(slug, _blank()), correct)
    progress[slug] = entry
    request.session[SESSION_KEY] = progress
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        with transaction.atomic():
            row, _ = ExerciseProgress.objects.select_for_update().get_or_create(
                user=user, exercise=slug
            )
            if not row.solved:
                new = _advance(
                    {"attempts": row.attempts, "solved": row.solved, "first_try": row.first_try},
                    correct,
                )
                row.attempts, row.solved, row.first_try = (
                    new["attempts"],
                    new["solved"],
                    new["first_try"],
                )
                row.save()
            entry = {"attempts": row.attempts, "solved": row.solved, "first_try": row.first_try}
    return entry


def progress_for(request: HttpRequest) -> dict[str, dict]:
    """Every exercise's entry for this visitor: the account's if signed in, with
    anything done in this browser before signing in added."""
    progress = {slug: dict(entry) for slug, entry in request.session.get(SESSION_KEY, {}).items()}
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        rows = list(ExerciseProgress.objects.filter(user=user))
        known = {row.exercise for row in rows}
        adopted = [
            ExerciseProgress(user=user, exercise=slug, **entry)
            for slug, entry in progress.items()
            if slug not in known
        ]
        if adopted:  # work done in this browser before signing in joins the account
            ExerciseProgress.objects.bulk_create(adopted, ignore_conflicts=True)
        for row in rows:
            mine = progress.get(row.exercise)
            if mine is not None and mine["solved"] and not row.solved:
                # Solved in this browser before signing in, after failed tries on the
                # account: the account records it solved, with all the tries, and so not
                # right first time.  The filter on solved keeps a concurrent answer intact.
                row.attempts += mine["attempts"]
                row.solved, row.first_try = True, False
                ExerciseProgress.objects.filter(pk=row.pk, solved=False).update(
                    attempts=row.attempts, solved=True, first_try=False
                )
            progress[row.exercise] = {
                "attempts": row.attempts,
                "solved": row.solved,
                "first_try": row.first_try,
            }
    return progress


def summary(progress: dict[str, dict], slugs: list[str]) -> dict[str, int]:
    """Counts over a list of exercises: total, done (solved), right first time."""
    entries = [progress.get(slug, _blank()) for slug in slugs]
    return {
        "total": len(slugs),
        "done": sum(1 for e in entries if e["solved"]),
        "first_try": sum(1 for e in entries if e["first_try"]),
    }
