"""Several room games at once on SQLite (chosen by DATABASE_URL), sockets coming and going,
and processes burning every core meanwhile: no error of any kind.

    python -m tests.chaos.sqlite_load [--rooms 4] [--seconds 60] [--burners 2]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import tempfile
import time
from collections import Counter
from pathlib import Path

import aiohttp

from tests.chaos import harness
from tests.chaos.harness import PORT_BASE, servers, site_env
from tests.chaos.players import room_between, room_version


def burn(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


async def play_room(base: str, seconds: float, statuses: Counter, rng: random.Random) -> int:
    alice, bob, room = await room_between(base, size=5)
    edges = [f"{chr(97 + x)}{y}-{chr(98 + x)}{y}" for y in range(1, 7) for x in range(5)]
    edges += [f"{chr(97 + x)}{y}-{chr(97 + x)}{y + 1}" for y in range(1, 6) for x in range(6)]
    rng.shuffle(edges)
    moves, end = 0, time.monotonic() + seconds
    try:
        while edges and time.monotonic() < end:
            _, html = await alice.get(f"/rooms/{room}/state")
            statuses["state"] += 1
            mover = alice if 'data-turn="blue"' in html else bob
            version = await room_version(mover, room)
            edge = edges.pop()
            status, _, _ = await mover.post(
                f"/rooms/{room}/move", {"edge": edge, "version": version}
            )
            statuses[status] += 1
            moves += status == 200
            if rng.random() < 0.2:
                status, _, _ = await mover.post(f"/rooms/{room}/chat", {"preset": "Nice move"})
                statuses[status] += 1
    finally:
        await alice.close()
        await bob.close()
    return moves


async def sockets_come_and_go(base: str, seconds: float, statuses: Counter) -> None:
    ws_base, end = base.replace("http://", "ws://"), time.monotonic() + seconds
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < end:
            try:
                async with session.ws_connect(
                    ws_base + "/ws/rooms/", headers={"Origin": base}
                ) as ws:
                    statuses["ws:open"] += 1
                    await asyncio.sleep(0.3)
                    await ws.close()
            except aiohttp.WSServerHandshakeError as exc:
                statuses[f"ws:refused:{exc.status}"] += 1
            except Exception as exc:
                statuses[f"ws:error:{type(exc).__name__}"] += 1


async def load(base: str, rooms: int, seconds: float) -> dict:
    statuses: Counter = Counter()
    rng = random.Random(7)
    results = await asyncio.gather(
        *(play_room(base, seconds, statuses, rng) for _ in range(rooms)),
        *(sockets_come_and_go(base, seconds, statuses) for _ in range(3)),
    )
    return {"statuses": statuses, "moves": sum(r for r in results if r)}


def run(*, rooms: int, seconds: float, burners: int, port: int = PORT_BASE) -> dict:
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        url = f"sqlite:///{tmp / 'load.sqlite3'}"
        with site_env(tmp, RATE_LIMITS_ENABLED="0", DATABASE_URL=url) as env:
            env.pop("SQLITE_PATH", None)
            procs = [
                multiprocessing.Process(target=burn, args=(seconds + 10,)) for _ in range(burners)
            ]
            for p in procs:
                p.start()
            try:
                with servers(env, tmp, 1, port) as (server,):
                    result = harness.run_async(load(server.url, rooms, seconds))
            finally:
                for p in procs:
                    p.terminate()
            log = server.log_path.read_text(errors="replace")
            result["tracebacks"] = server.tracebacks()
            result["locked"] = log.count("database is locked")
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rooms", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--burners", type=int, default=2)
    args = parser.parse_args()
    r = run(rooms=args.rooms, seconds=args.seconds, burners=args.burners)
    five = sum(v for k, v in r["statuses"].items() if isinstance(k, int) and k >= 500)
    print(
        f"sqlite load: {args.rooms} rooms for {args.seconds:.0f} s with {args.burners} CPU "
        f"burners: {r['moves']} moves, {five} responses >= 500, {r['locked']} 'database is "
        f"locked', {r['tracebacks']} tracebacks {dict(r['statuses'])}"
    )


if __name__ == "__main__":
    main()
