"""``manage.py engine_workers``: the health check of the engine workers.

Lists the live workers (their heartbeats in Redis) and exits with status 1
when a lane has none, so a monitor or an orchestrator's probe can use it.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from dotsboxes import jobs


class Command(BaseCommand):
    help = "List live engine workers; fail when a lane has none."

    def handle(self, *args, **options):
        if not jobs.queued():
            self.stdout.write("ENGINE_QUEUE is off: the web processes run the engine themselves")
            return
        from dotsboxes.jobs.worker import live_workers

        workers = live_workers()
        for worker in workers:
            state = "busy" if worker["busy"] else "idle"
            line = f"{worker['lane']:<10} {worker['host']}:{worker['pid']} {state}"
            waited, ran = worker.get("waited_ms"), worker.get("ran_ms")
            if waited and ran:
                line += (
                    f" {worker['jobs']} jobs, waited median {waited['median']} ms"
                    f" p95 {waited['p95']} ms, ran median {ran['median']} ms"
                )
            self.stdout.write(line)
        missing = [lane for lane in jobs.LANES if not any(w["lane"] == lane for w in workers)]
        if missing:
            raise CommandError(f"no live engine worker for: {', '.join(missing)}")
