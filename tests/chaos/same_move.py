"""The same move posted 20 ways at once, many times: exactly one is applied, never a 5xx.

python -m tests.chaos.same_move [--trials 100] [--at-once 20] [--database sqlite|postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections import Counter
from pathlib import Path

from tests.chaos import harness
from tests.chaos.harness import PORT_BASE, servers, site_env
from tests.chaos.players import room_between, room_version


async def trials(base: str, count: int, at_once: int) -> dict:
    statuses: Counter = Counter()
    exact = 0
    alice, bob, room = await room_between(base, size=9)
    edges = [f"{chr(97 + x)}{y}-{chr(98 + x)}{y}" for y in range(1, 11) for x in range(9)]
    edges += [f"{chr(97 + x)}{y}-{chr(97 + x)}{y + 1}" for y in range(1, 10) for x in range(10)]
    try:
        for trial in range(count):
            _, html = await alice.get(f"/rooms/{room}/state")
            mover = alice if 'data-turn="blue"' in html else bob
            version = await room_version(mover, room)
            edge = edges[trial]
            data = {"edge": edge, "version": version}
            answers = await asyncio.gather(
                *(mover.post(f"/rooms/{room}/move", data, htmx=i % 2 == 0) for i in range(at_once))
            )
            for status, _, _ in answers:
                statuses[status] += 1
            applied = sum(1 for s, _, _ in answers if s in (200, 302))
            after = await room_version(mover, room)
            exact += applied == 1 and after == version + 1
    finally:
        await alice.close()
        await bob.close()
    return {"statuses": statuses, "exact": exact}


def run(*, trials_count: int, at_once: int, database: str, port: int = PORT_BASE) -> dict:
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        with site_env(tmp, database=database, RATE_LIMITS_ENABLED="0") as env:
            with servers(env, tmp, 1, port) as (server,):
                result = harness.run_async(trials(server.url, trials_count, at_once))
            result["tracebacks"] = server.tracebacks()
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--at-once", type=int, default=20)
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    args = parser.parse_args()
    result = run(trials_count=min(args.trials, 180), at_once=args.at_once, database=args.database)
    five = sum(v for k, v in result["statuses"].items() if k >= 500)
    print(
        f"same move db={args.database}: {result['exact']}/{min(args.trials, 180)} trials applied "
        f"exactly once ({args.at_once} posts each), {five} responses >= 500, "
        f"{result['tracebacks']} tracebacks {dict(result['statuses'])}"
    )


if __name__ == "__main__":
    main()
