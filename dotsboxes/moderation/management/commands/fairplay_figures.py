"""Make the fair-play figures of every analysed rated game that lacks them."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from dotsboxes.moderation import evidence


class Command(BaseCommand):
    help = "Make the fair-play figures of every analysed rated game that lacks them."

    def handle(self, *args: object, **options: object) -> None:
        total = 0
        while made := evidence.fill(limit=500):
            total += made
        self.stdout.write(f"{total} games given fair-play figures")
