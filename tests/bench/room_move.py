"""Server time of one move in an online room (a script, not a test).

    python tests/bench/room_move.py                      # this checkout
    python tests/bench/room_move.py --tree /tmp/before   # another checkout, same script

Measures what one room move costs the server that takes it, through the whole
Django stack in-process: middleware, session, CSRF, the locked room and game, the
core's draw and commit, and, after commit, the change event rendering the lean push
for the room's sockets (``--spectators`` registered spectators plus the two
players, as ``Connection`` rows) and the response the mover gets.  Sockets are rows
here, not real WebSockets: ``tests/bench/rooms.py`` measures the fan-out over the
wire and the servers' whole CPU; this one isolates the request, so two trees (before
and after a change to the core) can be compared move for move.

Prints the median and 95th percentile of the process's CPU time and of the wall
time per move (the first 10 moves of each game are left out as warm-up), over
``--games`` random 5 x 5 games of ``--moves`` edges.  Uses a throwaway SQLite file
unless ``DATABASE_URL`` is set.
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
from pathlib import Path

WARM_UP = 10


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def setup(tree: Path) -> None:
    sys.path.insert(0, str(tree))
    os.chdir(tree)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dotsboxes.settings")
    if not os.environ.get("DATABASE_URL"):
        os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.RATE_LIMITS_ENABLED = False  # one address makes every move
    settings.ALLOWED_HOSTS = ["testserver"]  # the test client's host
    # The test client renders {% csrf_token %} outside a request context in a fragment.
    warnings.filterwarnings("ignore", message=".*csrf_token.*")
    call_command("migrate", verbosity=0)


def play(games: int, spectators: int, moves: int, seed: int) -> tuple[list[float], list[float]]:
    from django.test import Client
    from django.urls import reverse

    from dotsboxes.rooms.models import Connection, Room

    has_language = any(f.name == "language" for f in Connection._meta.get_fields())
    rng = random.Random(seed)
    cpu: list[float] = []
    wall: list[float] = []
    for g in range(games):
        host, guest = Client(), Client()
        form = {"width": 5, "height": 5, "side": "blue", "timer": 0, "visibility": "public"}
        response = host.post(reverse("rooms:create"), {**form, "name": "Host"})
        public_id = response["Location"].rstrip("/").rsplit("/", 1)[-1]
        room = Room.objects.select_related("game").get(game__public_id=public_id)
        guest.post(reverse("rooms:join", args=[public_id]), {"name": "Guest"})
        sockets = [("", f"s{i}") for i in range(spectators)] + [("blue", "h"), ("red", "g")]
        for side, who in sockets:
            row = {"side": side, "viewer_key": f"c:{g}-{who}", "name": who, "server": "bench"}
            if has_language:
                row["language"] = "en"
            Connection.objects.create(room=room, channel_name=f"bench.{g}.{who}", **row)
        url = reverse("rooms:move", args=[public_id])
        for n in range(moves):
            room.game.refresh_from_db()
            board = room.game.board()
            if board.is_over():
                break
            edge = str(rng.choice(board.legal_moves))
            client = host if board.turn == 0 else guest
            data = {"edge": edge, "version": room.game.version}
            c0, w0 = time.process_time(), time.perf_counter()
            response = client.post(url, data, headers={"HX-Request": "true"})
            c1, w1 = time.process_time(), time.perf_counter()
            assert response.status_code == 200, (response.status_code, response.content[:200])
            if n >= WARM_UP:
                cpu.append((c1 - c0) * 1000)
                wall.append((w1 - w0) * 1000)
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[2])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--spectators", type=int, default=10)
    parser.add_argument("--moves", type=int, default=50, help="edges per game (at most 60)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    setup(args.tree.resolve())
    cpu, wall = play(args.games, args.spectators, args.moves, args.seed)
    print(
        f"{args.tree}: {len(cpu)} room moves, {args.spectators} spectators + 2 players each"
        f" | CPU median {statistics.median(cpu):.2f} ms p95 {percentile(cpu, 0.95):.2f}"
        f" | wall median {statistics.median(wall):.2f} ms p95 {percentile(wall, 0.95):.2f}"
        f" | load {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
