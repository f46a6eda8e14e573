"""Benchmark of many games against the computer through the job queue (a script, not a test).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/db_computer_bench \\
    REDIS_URL=redis://127.0.0.1:6379/5 python tests/bench/computer_games.py
    ... --games 300 --master 10 --workers 2 --duration 180 --pace 8

Starts ``--processes`` uvicorn web processes with ``ENGINE_QUEUE=1`` (they start no
engine pool) and ``--workers`` engine workers, each its own ``manage.py
engine_worker --lane play`` command, on a freshly emptied database.  Then
``--games`` anonymous browsers each play a 5 x 5 game against the computer
(``--master`` of them at master, the rest casual and club in turn) the way the page
does without a person's patience removed: a random free edge after ``--pace``
seconds (jittered 0.5-1.5x), then polling ``wait`` every 400 ms, as the page does,
until the computer's edge shows.  A finished game is followed by a new one, until
``--duration`` seconds have passed.

Prints the move latency at three points:
- **on the page**: from sending the POST to the poll that shows the computer's
  first edge (includes the page's 400 ms poll interval);
- **committed**: from the player's edge to the computer's, both as the database
  stored them (``Move.created_at``): the queue, the thinking and the commit;
- **queue**: the workers' own figures (``/healthz/workers``' health keys): how long
  each job waited between its send and its start, and how long it ran;
and the CPU per computer edge of the web processes and the workers.  Needs
PostgreSQL and Redis (the queue and the workers' shared database).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


from dotsboxes.jobs.worker import live_workers  # noqa: E402 (settings are read lazily)
from tests.bench.rooms import (  # noqa: E402
    Player,
    client_session,
    cpu_seconds,
    machine_busy_seconds,
    percentile,
    start_servers,
    wait_up,
)

POLL_SECONDS = 0.4  # the page's hx-trigger="every 400ms"
SLOT = re.compile(r'<g class="slot" data-edge="([a-z]\d+-[a-z]\d+)"')
VERSION = re.compile(r'id="game"[^>]*data-version="(\d+)"')
THINKING = 'class="thinking"'


class Stats:
    def __init__(self) -> None:
        self.page: list[float] = []  # POST -> computer's edge on the page, seconds
        self.page_by_level: dict[str, list[float]] = {}
        self.games: list[str] = []  # public ids
        self.finished = 0
        self.errors: list[str] = []


def levels(games: int, master: int) -> list[str]:
    rest = ["casual", "club"]
    return ["master"] * master + [rest[i % 2] for i in range(games - master)]


async def play_games(session, base: str, level: str, seed: int, args, stats: Stats, until: float):
    rng = random.Random(seed)
    player = Player(base)
    async with session.get(base + "/play/", headers=player.headers()) as r:
        player.keep(r)
    await asyncio.sleep(rng.random() * args.pace)  # not all at once
    while time.monotonic() < until:
        side = rng.choice(["blue", "red"])
        form = {"mode": "computer", "size": "5x5", "side": side, "level": level}
        status, location, _ = await player.post(session, "/play/", form)
        if status != 302:
            stats.errors.append(f"new game: {status}")
            return
        stats.games.append(location.strip("/").rsplit("/", 1)[-1])
        async with session.get(base + location, headers=player.headers()) as r:
            html = await r.text()
        sent = None
        while time.monotonic() < until:
            if THINKING in html:  # the computer's turn: poll as the page does
                version = VERSION.search(html)[1]
                await asyncio.sleep(POLL_SECONDS)
                url = f"{base}{location}wait?version={version}"
                async with session.get(url, headers=player.headers(**{"HX-Request": "true"})) as r:
                    if r.status == 204:
                        continue
                    html = await r.text()
                if sent is not None:
                    took = time.perf_counter() - sent
                    stats.page.append(took)
                    stats.page_by_level.setdefault(level, []).append(took)
                    sent = None
                continue
            free = SLOT.findall(html)
            if not free:
                stats.finished += 1
                break
            await asyncio.sleep(args.pace * (0.5 + rng.random()))
            version = VERSION.search(html)[1]
            sent = time.perf_counter()
            status, _, html = await player.post(
                session,
                location + "move",
                {"edge": rng.choice(free), "version": version},
                **{"HX-Request": "true"},
            )
            if status != 200:
                stats.errors.append(f"move: {status} {html[:100]}")
                return
            if THINKING not in html:
                sent = None  # the player's edge claimed a box: their turn again


def committed_latencies(public_ids: list[str]) -> dict[str, list[float]]:
    """Seconds from each player's edge to the computer's next edge, as stored, per level."""
    import django

    django.setup()
    from dotsboxes.games.models import Game

    found: dict[str, list[float]] = {}
    for game in Game.objects.filter(public_id__in=public_ids).prefetch_related("moves"):
        moves = sorted(game.moves.all(), key=lambda m: m.ply)
        for before, after in itertools.pairwise(moves):
            if not before.by_computer and after.by_computer:
                seconds = (after.created_at - before.created_at).total_seconds()
                found.setdefault(game.computer_level, []).append(seconds)
    return found


def line(name: str, seconds: list[float]) -> str:
    if not seconds:
        return f"{name:<28}: none"
    ms = [s * 1000 for s in seconds]
    return (
        f"{name:<28}: median {statistics.median(ms):7.0f} ms   p95 {percentile(ms, 0.95):7.0f} ms"
        f"   p99 {percentile(ms, 0.99):7.0f} ms   (n={len(ms)})"
    )


async def run(args, bases: list[str], stats: Stats) -> None:
    async with client_session(120) as session:
        for base in bases:
            await wait_up(session, base)
        until = time.monotonic() + args.duration
        await asyncio.gather(
            *(
                play_games(session, bases[i % len(bases)], level, i, args, stats, until)
                for i, level in enumerate(levels(args.games, args.master))
            )
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--master", type=int, default=10, help="games at master (of --games)")
    parser.add_argument("--workers", type=int, default=2, help="engine worker commands")
    parser.add_argument("--processes", type=int, default=1, help="web processes")
    parser.add_argument("--duration", type=float, default=180, help="seconds of play")
    parser.add_argument("--pace", type=float, default=8.0, help="a player's mean think, s")
    parser.add_argument("--port", type=int, default=8650)
    args = parser.parse_args()
    args.server = "uvicorn"
    if not os.environ.get("REDIS_URL") or not os.environ.get("DATABASE_URL"):
        sys.exit("the queue needs REDIS_URL and DATABASE_URL (PostgreSQL)")
    namespace = f"bench-{uuid.uuid4().hex[:6]}"
    os.environ.update(ENGINE_QUEUE="1", ENGINE_QUEUE_NAMESPACE=namespace, LOG_LEVEL="WARNING")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dotsboxes.settings")
    tmp = Path(tempfile.mkdtemp())
    servers, setup = start_servers(args, tmp)
    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": f"bench-{uuid.uuid4().hex}"}
    env["ALLOWED_HOSTS"] = "127.0.0.1"
    workers = []
    for i in range(args.workers):
        log = open(tmp / f"worker-{i}.log", "w")  # noqa: SIM115 (lives as long as the worker)
        command = [sys.executable, "manage.py", "engine_worker", "--lane", "play"]
        workers.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log))
    stats = Stats()
    try:
        bases = [f"http://127.0.0.1:{args.port + i}" for i in range(args.processes)]
        deadline = time.monotonic() + 60
        while len(live_workers(namespace)) < args.workers:
            if time.monotonic() > deadline:
                sys.exit(f"the workers did not start: see {tmp}")
            time.sleep(0.2)
        cpu0 = [cpu_seconds(p.pid) for p in servers], [cpu_seconds(p.pid) for p in workers]
        busy0, t0 = machine_busy_seconds(), time.perf_counter()
        asyncio.run(run(args, bases, stats))
        elapsed = time.perf_counter() - t0
        web_cpu = sum(cpu_seconds(p.pid) for p in servers) - sum(cpu0[0])
        worker_cpu = sum(cpu_seconds(p.pid) for p in workers) - sum(cpu0[1])
        busy = machine_busy_seconds() - busy0
        figures = live_workers(namespace)
    finally:
        for process in servers + workers:
            process.terminate()
        for process in servers + workers:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
    committed = committed_latencies(stats.games)
    edges = sum(w["jobs"] for w in figures)
    print(f"\n{setup}, {args.workers} engine worker command(s), queue {namespace}")
    print(
        f"{args.games} games ({args.master} master, the rest casual and club), pace "
        f"{args.pace} s, {elapsed:.0f} s: {len(stats.games)} games started, "
        f"{stats.finished} finished, {edges} computer edges"
    )
    print(line("on the page (400 ms polls)", stats.page))
    for level, seconds in sorted(stats.page_by_level.items()):
        print(line(f"  {level}", seconds))
    every = [s for seconds in committed.values() for s in seconds]
    print(line("committed (player -> computer)", every))
    for level, seconds in sorted(committed.items()):
        print(line(f"  {level}", seconds))
    for w in figures:
        waited, ran = w.get("waited_ms") or {}, w.get("ran_ms") or {}
        print(
            f"worker {w['pid']}: {w['jobs']} jobs, waited in the queue median "
            f"{waited.get('median')} ms p95 {waited.get('p95')} ms; ran median "
            f"{ran.get('median')} ms p95 {ran.get('p95')} ms"
        )
    per_edge = 1000 / max(edges, 1)
    print(
        f"CPU per computer edge: web {web_cpu * per_edge:.1f} ms, workers "
        f"{worker_cpu * per_edge:.1f} ms; machine busy {busy / elapsed / 2:.0%} of 2 cores, "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print(f"errors: {len(stats.errors)} {stats.errors[:3]}")


if __name__ == "__main__":
    main()
