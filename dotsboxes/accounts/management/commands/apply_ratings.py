"""Rate every finished rated game that has no rating changes yet, oldest first.

The ``post_save`` receiver rates games as they finish; this catches up games
finished by a ``QuerySet.update()`` or loaded from a fixture, and is safe to
run at any time (rating a game is idempotent).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from dotsboxes.accounts.services import rating_apply_game
from dotsboxes.games.models import Game


class Command(BaseCommand):
    help = "Apply ratings for finished rated games that have not been rated yet."

    def handle(self, *args, **options) -> None:
        pending = (
            Game.objects.filter(rated=True, status=Game.Status.FINISHED)
            .exclude(blue_user=None)
            .exclude(red_user=None)
            .filter(rating_changes=None)
            .order_by("finished_at", "id")
        )
        rated = sum(1 for game in pending.iterator() if rating_apply_game(game=game))
        self.stdout.write(f"Rated {rated} game{'s' if rated != 1 else ''}.")
