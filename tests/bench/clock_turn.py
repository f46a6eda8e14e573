"""What a timed-out turn costs the room clock (a script, not a test).

    python tests/bench/clock_turn.py [--rooms 12] [--due 1 4]

The room clock (``rooms.ticker``) plays a timed-out turn, or a stand-in's, by asking
for its edges in the tick's own thread: ``games.jobs.think``, the same ``engine.choose``
job the computer's move job calls (the play lane's process pool, or an engine worker
with ``ENGINE_QUEUE``), then drawing the whole turn under the room's lock.  This
measures, over timed 5 x 5 rooms with a random 10-30 edges drawn, the wall time of
one ``tick()`` that finds ``--due`` rooms out of time, the part of it spent waiting
for the engine, and a tick with nothing due.  Uses a throwaway SQLite file unless
``DATABASE_URL`` is set.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import warnings
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def setup() -> None:
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dotsboxes.settings")
    if not os.environ.get("DATABASE_URL"):
        os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.RATE_LIMITS_ENABLED = False
    settings.ALLOWED_HOSTS = ["testserver"]
    warnings.filterwarnings("ignore", message=".*csrf_token.*")
    call_command("migrate", verbosity=0)


def timed_room(rng: random.Random):
    from django.test import Client
    from django.urls import reverse

    from dotsboxes.rooms.models import Room

    host, guest = Client(), Client()
    form = {"width": 5, "height": 5, "side": "blue", "timer": 60, "visibility": "public"}
    response = host.post(reverse("rooms:create"), {**form, "name": "Host"})
    public_id = response["Location"].rstrip("/").rsplit("/", 1)[-1]
    guest.post(reverse("rooms:join", args=[public_id]), {"name": "Guest"})
    url = reverse("rooms:move", args=[public_id])
    for _ in range(rng.randint(10, 30)):
        room = Room.objects.select_related("game").get(game__public_id=public_id)
        board = room.game.board()
        if board.is_over():
            break
        client = host if board.turn == 0 else guest
        edge = str(rng.choice(board.legal_moves))
        client.post(url, {"edge": edge, "version": room.game.version})
    return Room.objects.select_related("game").get(game__public_id=public_id)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=12, help="timed-out turns per --due value")
    parser.add_argument("--due", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    setup()
    from django.utils import timezone

    from dotsboxes.games import jobs as game_jobs
    from dotsboxes.rooms import ticker
    from dotsboxes.rooms.models import Room

    waited: list[float] = []
    think = game_jobs.think

    def timed_think(*a, **k):
        t0 = time.perf_counter()
        try:
            return think(*a, **k)
        finally:
            waited.append((time.perf_counter() - t0) * 1000)

    ticker.think = timed_think  # the clock's own name for it
    rng = random.Random(args.seed)
    ticker.tick()  # warm the engine pool
    idle = []
    for _ in range(20):
        t0 = time.perf_counter()
        ticker.tick()
        idle.append((time.perf_counter() - t0) * 1000)
    print(f"tick with nothing due: median {statistics.median(idle):.1f} ms")
    for due in args.due:
        ticks, per_edge, edges = [], [], 0
        for _ in range(max(1, args.rooms // due)):
            rooms = [timed_room(rng) for _ in range(due)]
            past = timezone.now() - timedelta(seconds=1)
            Room.objects.filter(pk__in=[r.pk for r in rooms]).update(turn_deadline=past)
            before = sum(r.game.moves.count() for r in rooms)
            waited.clear()
            t0 = time.perf_counter()
            ticker.tick()
            ticks.append((time.perf_counter() - t0) * 1000)
            per_edge.extend(waited)
            edges += sum(r.game.moves.count() for r in rooms) - before
        print(
            f"{due} room(s) out of time in one tick: tick median {statistics.median(ticks):.0f} ms"
            f" p95 {percentile(ticks, 0.95):.0f} ms over {len(ticks)} ticks; {edges} edges drawn;"
            f" engine wait per edge median {statistics.median(per_edge):.0f} ms"
            f" p95 {percentile(per_edge, 0.95):.0f} ms | load {os.getloadavg()[0]:.2f}"
        )


if __name__ == "__main__":
    main()
