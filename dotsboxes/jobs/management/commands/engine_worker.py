"""``manage.py engine_worker``: the engine workers of one machine, in one command.

Starts ``--play`` processes serving the play lane (computer moves, hints) and
``--background`` processes serving analyses, each ``manage.py engine_worker
--lane <lane>``, and starts again any that dies.  SIGTERM or SIGINT stops them
all (each finishes the job in hand; one killed outright loses nothing, the
queue delivers its job again).  Needs ``ENGINE_QUEUE=1`` and ``REDIS_URL``, and
the database the web processes use.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from django.core.management.base import BaseCommand, CommandError

from dotsboxes import jobs


class Command(BaseCommand):
    help = "Run engine workers for the job queue (ENGINE_QUEUE=1, REDIS_URL)."

    def add_arguments(self, parser):
        cores = os.cpu_count() or 2
        parser.add_argument(
            "--play", type=int, default=cores, help="processes for moves and hints (cores)"
        )
        parser.add_argument("--background", type=int, default=1, help="processes for analyses (1)")
        parser.add_argument("--lane", choices=jobs.LANES, help="be one worker of this lane")

    def handle(self, *args, play: int, background: int, lane: str | None, **options):
        if not jobs.queued():
            raise CommandError("engine_worker needs ENGINE_QUEUE=1 and REDIS_URL")
        if lane:
            from dotsboxes.jobs.worker import serve

            serve(lane)
            return
        self.supervise([jobs.PLAY] * play + [jobs.BACKGROUND] * background)

    def supervise(self, lanes: list[str]) -> None:
        manage = os.path.abspath(sys.argv[0])
        command = [sys.executable, manage, "engine_worker", "--lane"]
        children = {n: subprocess.Popen([*command, lane]) for n, lane in enumerate(lanes)}
        stopping = []
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stopping.append(True))
        self.stdout.write(
            f"engine workers: {lanes.count(jobs.PLAY)} play, "
            f"{lanes.count(jobs.BACKGROUND)} background"
        )
        try:
            while not stopping:
                time.sleep(0.5)
                for n, child in list(children.items()):
                    if child.poll() is not None:
                        self.stderr.write(f"engine worker {child.pid} ended; starting another")
                        children[n] = subprocess.Popen([*command, lanes[n]])
        finally:
            for child in children.values():
                if child.poll() is None:
                    child.terminate()
            for child in children.values():
                child.wait()
