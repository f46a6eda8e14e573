"""Redis stopped for 30 s under live room games and a game against the computer, two servers.

    python -m tests.chaos.redis_outage [--down 30] [--database sqlite|postgres]

Alice (server 1) and Bob (server 2) play a room while a spectator socket listens
on each server, and Carol plays the computer on server 1.  Redis (a private
redis-server on OUTAGE_REDIS_PORT, default 6391) stops for ``--down`` seconds
in the middle.  Prints: moves acknowledged and lost, responses >= 500, and how
long after Redis came back each spectator's page showed the current version.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
import time
from collections import Counter
from pathlib import Path

import aiohttp

from tests.chaos import harness
from tests.chaos.harness import PORT_BASE, servers, site_env
from tests.chaos.players import Player, computer_game, room_between, room_version
from tests.reliability.redis_server import OUTAGE_PORT, RedisServer

SYNC = re.compile(r'id="room-sync"[^>]*data-version="(\d+)"')
EDGES = [f"{chr(97 + x)}{y}-{chr(98 + x)}{y}" for y in range(1, 7) for x in range(5)]
EDGES += [f"{chr(97 + x)}{y}-{chr(97 + x)}{y + 1}" for y in range(1, 6) for x in range(6)]


class Watcher:
    """A spectator's socket: the newest version it has heard of."""

    def __init__(self, base: str, room: str) -> None:
        self.url = base.replace("http://", "ws://") + f"/ws/rooms/{room}/"
        self.origin = base
        self.seen = -1
        self.task: asyncio.Task | None = None

    async def listen(self) -> None:
        async with aiohttp.ClientSession() as session:
            while True:
                try:
                    async with session.ws_connect(self.url, headers={"Origin": self.origin}) as ws:
                        async for message in ws:
                            match = SYNC.search(
                                message.data if isinstance(message.data, str) else ""
                            )
                            if match:
                                self.seen = max(self.seen, int(match[1]))
                except Exception:
                    pass
                await asyncio.sleep(0.5)


async def scenario(bases: list[str], redis: RedisServer, down: float) -> dict:
    statuses: Counter = Counter()
    alice, bob, room = await room_between(bases[0], size=5, other_base=bases[1])
    carol = Player(bases[0])
    game = await computer_game(carol, size="5x5")
    watchers = [Watcher(base, room) for base in bases]
    for w in watchers:
        w.task = asyncio.create_task(w.listen())
    acked_room, acked_carol, free = 0, [], list(EDGES)
    carol_edges = EDGES

    async def step() -> None:
        nonlocal acked_room
        _, html = await alice.get(f"/rooms/{room}/state")
        mover = alice if 'data-turn="blue"' in html else bob
        version = await room_version(mover, room)
        for edge in list(free):
            if (
                f'data-edge="{edge}"' in html
                and "edge drawn" not in html.split(f'data-edge="{edge}"')[0][-80:]
            ):
                pass
            status, _, _ = await mover.post(
                f"/rooms/{room}/move", {"edge": edge, "version": version}
            )
            statuses[status] += 1
            if status == 200:
                acked_room += 1
                free.remove(edge)
                break
            if status == 400:  # drawn already (by nobody we know of): try the next
                free.remove(edge)
                continue
            break
        # Carol: a free edge, at the version her page shows; acknowledged once recorded.
        _, page = await carol.get(f"/play/{game}/")
        _, record = await carol.get(f"/play/{game}/record.txt")
        match = re.search(r'name="version" value="(\d+)"', page)
        edge = next((e for e in carol_edges if e not in record), None)
        if match and edge:
            status, _, _ = await carol.post(
                f"/play/{game}/move", {"edge": edge, "version": match[1]}
            )
            statuses[status] += 1
            _, record = await carol.get(f"/play/{game}/record.txt")
            if status == 200 and edge in record:
                acked_carol.append(edge)

    start = time.monotonic()
    while time.monotonic() - start < 5:
        await step()
        await asyncio.sleep(0.5)
    redis.stop()
    outage = time.monotonic()
    while time.monotonic() - outage < down:
        await step()
        await asyncio.sleep(0.5)
    redis.start()
    back = time.monotonic()
    current = await room_version(alice, room)
    synced = [None] * len(watchers)
    while time.monotonic() - back < 30 and None in synced:
        for i, w in enumerate(watchers):
            if synced[i] is None and w.seen >= current:
                synced[i] = time.monotonic() - back
        await asyncio.sleep(0.1)
    for _ in range(6):  # and pushes flow again
        await step()
        await asyncio.sleep(0.5)
    await asyncio.sleep(2)
    final = await room_version(alice, room)
    flowing = all(w.seen >= final for w in watchers)
    _, record = await carol.get(f"/play/{game}/record.txt")
    lost_carol = [e for e in acked_carol if e not in record]
    for w in watchers:
        w.task.cancel()
    for p in (alice, bob, carol):
        await p.close()
    return {
        "statuses": statuses,
        "room_moves": acked_room,
        "room_version": final,
        "carol_moves": len(acked_carol),
        "lost_carol": lost_carol,
        "synced": synced,
        "flowing": flowing,
        "record": record,
    }


def run(
    *, down: float, database: str, port: int = PORT_BASE, redis_port: int = OUTAGE_PORT
) -> dict:
    redis = RedisServer(redis_port).start()
    try:
        with tempfile.TemporaryDirectory() as name:
            tmp = Path(name)
            with site_env(
                tmp, database=database, redis_url=redis.url, RATE_LIMITS_ENABLED="0"
            ) as env:
                with servers(env, tmp, 2, port) as running:
                    result = harness.run_async(scenario([s.url for s in running], redis, down))
                result["tracebacks"] = sum(s.tracebacks() for s in running)
    finally:
        redis.stop()
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--down", type=float, default=30)
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="postgres")
    args = parser.parse_args()
    r = run(down=args.down, database=args.database)
    five = sum(v for k, v in r["statuses"].items() if k >= 500)
    synced = ", ".join("never" if s is None else f"{s:.1f} s" for s in r["synced"])
    print(
        f"redis outage db={args.database} down={args.down:.0f} s, 2 servers: "
        f"{r['room_moves']} room moves acknowledged (room version {r['room_version']}), "
        f"{r['carol_moves']} moves against the computer acknowledged, "
        f"{len(r['lost_carol'])} lost; {five} responses >= 500; spectators in sync {synced} "
        f"after Redis returned; pushes flowing after: {r['flowing']}; "
        f"{r['tracebacks']} logged tracebacks {dict(r['statuses'])}"
    )


if __name__ == "__main__":
    main()
