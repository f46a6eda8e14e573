"""Benchmark of a move on the play page (a script, not a test): ``python tests/bench/play.py``.

Measures the server time to accept a move and render the response on a
5 x 5 boxes board, through the whole Django stack (middleware, session, CSRF,
the locked transaction, the Move row, the rendered board, scoreboard and log),
with no engine: both seats belong to one browser (a game on one device).

- ``htmx``: ``POST move`` with ``HX-Request``, answered with the panel fragment;
- ``plain``: the same move as a plain form (``POST`` then the redirect) plus the
  ``GET`` of the page it redirects to.

Prints the median and 95th percentile per move in milliseconds of wall-clock
time (and the median CPU time of the process, which a busy machine inflates
less) over whole games (every one of the 60 edges, so early and late positions both count).
Target: median <= 15 ms for ``htmx``. Uses a throwaway SQLite file unless
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dotsboxes.settings")
if not os.environ.get("DATABASE_URL"):
    os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
os.environ.setdefault("LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from dotsboxes.games.models import Game  # noqa: E402

TARGET_MEDIAN_MS = 15.0


def play_games(
    client: Client, games: int, *, htmx: bool, seed: int
) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds per move over ``games`` random 5 x 5 games."""
    rng = random.Random(seed)
    times: list[float] = []
    cpu: list[float] = []
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    for _ in range(games):
        response = client.post(reverse("games:new"), {"mode": "local", "size": "5x5"})
        game = Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1])
        url = reverse("games:move", args=[game.public_id])
        board = game.board()
        version = game.version
        while not board.is_over():
            edge = rng.choice(board.legal_moves)
            data = {"edge": str(edge), "version": version, "ply": len(board.move_stack)}
            start, start_cpu = time.perf_counter(), time.process_time()
            response = client.post(url, data, **headers)
            if not htmx:
                response = client.get(response["Location"])
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            assert response.status_code == 200, response.status_code
            board.play(edge)
            version += 1
    return times, cpu


def report(name: str, measured: tuple[list[float], list[float]]) -> float:
    times, cpu = sorted(measured[0]), sorted(measured[1])
    median = statistics.median(times)
    p95 = times[int(0.95 * (len(times) - 1))]
    print(
        f"{name:>6}: median {median:6.2f} ms   p95 {p95:6.2f} ms   "
        f"(CPU median {statistics.median(cpu):.2f} ms; {len(times)} moves)"
    )
    return median


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="whole 5 x 5 games per path")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    client = Client(HTTP_HOST="localhost")
    play_games(client, 1, htmx=True, seed=0)  # warm up templates, caches and connections
    htmx = report("htmx", play_games(client, args.games, htmx=True, seed=1))
    report("plain", play_games(client, args.games, htmx=False, seed=2))
    verdict = "meets" if htmx <= TARGET_MEDIAN_MS else "MISSES"
    print(
        f"htmx median {verdict} the {TARGET_MEDIAN_MS:g} ms target (load average "
        f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
