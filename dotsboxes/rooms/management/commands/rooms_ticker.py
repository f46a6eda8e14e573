"""Run the room clock as its own process (for ``ROOMS_TICKER=worker`` deployments)."""

from __future__ import annotations

import asyncio
import contextlib

from django.core.management.base import BaseCommand

from dotsboxes.rooms import ticker


class Command(BaseCommand):
    help = "Enforce turn timers and play for absent players in online rooms."

    def handle(self, *args: object, **options: object) -> None:
        self.stdout.write("Room clock running; Ctrl-C to stop.")
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(ticker.run_forever(work=True))
