"""SIGKILL the server's whole process group mid-game, again and again, and restart it.

    python -m tests.chaos.kills [--kills 20] [--database sqlite|postgres]

Carol plays the master (5 x 5 boxes, 2 s a move, on the Python core, so most kills land while it
thinks) and Alice and Bob play a room with a 30-second turn timer, all over HTTP
as browsers do (the game page's poll included).  Meanwhile the server's process
group (uvicorn and its engine worker) is killed with SIGKILL at random moments,
as a power cut would, and started again at once on the same database.

Checked, from the database itself: every move that was answered 2xx is stored,
and each stored game replays by the rules; after every restart the computer
moves again (delay from restart to its move); and now and then the room's
players stop moving, so the turn clock must play for the side out of time,
across the kills (lateness past the deadline, or past the restart when the
deadline fell while the server was down).  With ``shortcut_clock`` (the short
CI version) the deadline is moved into the past while the server is down,
rather than waited for (30 s).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import aiohttp

from dotsboxes.rules import Board
from tests.chaos import harness
from tests.chaos.harness import PORT_BASE, Server, query, site_env
from tests.chaos.players import Player, computer_game, room_between

SIZE = 5
EDGES = [f"{chr(97 + x)}{y}-{chr(98 + x)}{y}" for y in range(1, SIZE + 2) for x in range(SIZE)]
EDGES += [
    f"{chr(97 + x)}{y}-{chr(97 + x)}{y + 1}" for y in range(1, SIZE + 1) for x in range(SIZE + 1)
]
GAME_VERSION = re.compile(r'id="game" class="game" data-version="(\d+)" data-ply="(\d+)"')
SLOT = re.compile(r'class="slot" data-edge="([^"]+)"')
ROOM_SYNC = re.compile(r'id="room-sync"[^>]*data-version="(\d+)"[^>]*data-turn="(\w*)"')
DRAWN = re.compile(r'class="edge drawn[^"]*" data-edge="([^"]+)"')
TIMER = 30  # seconds a move in the room (the shortest the form offers)


@dataclass
class State:
    env: dict[str, str]
    rng: random.Random
    up: asyncio.Event = field(default_factory=asyncio.Event)
    done: bool = False
    statuses: Counter = field(default_factory=Counter)
    acked: list[tuple[str, str]] = field(default_factory=list)  # (game public id, edge)
    carol_games: list[str] = field(default_factory=list)
    rooms: list[str] = field(default_factory=list)
    room_idle: bool = False

    async def call(self, coro):
        """A request's answer, or None when the server was killed under it (not acknowledged)."""
        try:
            answer = await asyncio.wait_for(coro, 60)
        except (aiohttp.ClientError, TimeoutError, ConnectionError):
            return None
        self.statuses[answer[0]] += 1
        return answer


def stored_moves(env: dict[str, str], public_id: str) -> list[tuple[str, bool]]:
    rows = query(
        env,
        "SELECT m.edge, m.by_computer FROM games_move m JOIN games_game g ON g.id = m.game_id "
        "WHERE g.public_id = %s ORDER BY m.ply",
        (public_id,),
    )
    return [(edge, bool(by)) for edge, by in rows]


def game_row(env: dict[str, str], public_id: str) -> tuple[str, str, int]:
    """(status, computer side, width) of a game."""
    return query(
        env,
        "SELECT status, computer_side, width FROM games_game WHERE public_id = %s",
        (public_id,),
    )[0]


def computer_to_move(env: dict[str, str], public_id: str) -> bool:
    status, side, _ = game_row(env, public_id)
    if status != "active":
        return False
    board = Board(SIZE, SIZE)
    for edge, _ in stored_moves(env, public_id):
        board.play(board.parse_edge(edge))
    return board.turn.name.lower() == side


def computer_moves(env: dict[str, str], public_id: str) -> int:
    return sum(1 for _, by in stored_moves(env, public_id) if by)


def room_deadline(env: dict[str, str], public_id: str) -> float | None:
    """The room's turn deadline as a Unix time (None: no deadline set)."""
    rows = query(
        env,
        "SELECT r.turn_deadline FROM rooms_room r JOIN games_game g ON g.id = r.game_id "
        "WHERE g.public_id = %s",
        (public_id,),
    )
    value = rows[0][0] if rows else None
    if value is None:
        return None
    if isinstance(value, str):  # SQLite keeps UTC as text
        value = datetime.fromisoformat(value).replace(tzinfo=UTC)
    return value.timestamp()


def set_deadline(env: dict[str, str], public_id: str, when: float) -> None:
    moment = datetime.fromtimestamp(when, UTC)
    value = moment if "DATABASE_URL" in env else moment.strftime("%Y-%m-%d %H:%M:%S.%f")
    query(
        env,
        "UPDATE rooms_room SET turn_deadline = %s "
        "WHERE game_id = (SELECT id FROM games_game WHERE public_id = %s)",
        (value, public_id),
    )


async def carol_plays(s: State, base: str) -> None:
    """Carol against the master, as her page does: move on her turn, poll while it thinks."""
    carol = Player(base)
    try:
        while not s.done:
            if not s.up.is_set():
                await asyncio.sleep(0.2)
                continue
            if not s.carol_games or game_row(s.env, s.carol_games[-1])[0] != "active":
                try:
                    s.carol_games.append(await computer_game(carol, "5x5", "master"))
                except Exception:
                    await asyncio.sleep(0.3)
                continue
            game = s.carol_games[-1]
            answer = await s.call(carol.get(f"/play/{game}/"))
            if answer is None:
                await asyncio.sleep(0.3)
                continue
            page = answer[1]
            found = GAME_VERSION.search(page)
            if found is None:
                await asyncio.sleep(0.3)
                continue
            version, ply = found.groups()
            if "Computer is thinking" in page:
                path = f"/play/{game}/wait?version={version}&ply={ply}"
                while not s.done:  # the page's poll: 204 until the computer's edge is in
                    answer = await s.call(carol.get(path, headers={"HX-Request": "true"}))
                    if answer is None or answer[0] != 204:
                        break
                    await asyncio.sleep(0.5)
                continue
            slots = SLOT.findall(page)
            if not slots:
                await asyncio.sleep(0.3)
                continue
            edge = s.rng.choice(slots)
            answer = await s.call(
                carol.post(f"/play/{game}/move", {"edge": edge, "version": version})
            )
            if answer is not None and answer[0] == 200 and "game-error" not in answer[1]:
                s.acked.append((game, edge))
            await asyncio.sleep(s.rng.uniform(0.05, 0.4))
    finally:
        await carol.close()


async def room_plays(s: State, base: str) -> None:
    """Alice and Bob in a timed room: each moves on their turn, unless told to idle."""
    alice = bob = None
    try:
        while not s.done:
            if not s.up.is_set() or s.room_idle:
                await asyncio.sleep(0.2)
                continue
            if alice is None:
                try:
                    alice, bob, room = await room_between(base, size=SIZE, timer=TIMER)
                except Exception:
                    alice = bob = None
                    await asyncio.sleep(0.3)
                    continue
                s.rooms.append(room)
            room = s.rooms[-1]
            answer = await s.call(alice.get(f"/rooms/{room}/state"))
            found = answer and ROOM_SYNC.search(answer[1])
            if not found:
                await asyncio.sleep(0.3)
                continue
            version, turn = found.groups()
            if not turn:  # the game is over: the next one in a new room
                await alice.close()
                await bob.close()
                alice = bob = None
                continue
            drawn = set(DRAWN.findall(answer[1]))
            free = [e for e in EDGES if e not in drawn]
            mover = alice if turn == "blue" else bob
            edge = s.rng.choice(free)
            answer = await s.call(
                mover.post(f"/rooms/{room}/move", {"edge": edge, "version": version})
            )
            if answer is not None and answer[0] == 200:
                s.acked.append((room, edge))
            await asyncio.sleep(s.rng.uniform(0.2, 0.7))
    finally:
        for p in (alice, bob):
            if p is not None:
                await p.close()


async def wait_for_computer(s: State, game: str, before: int, limit: float = 90) -> float | None:
    start = time.monotonic()
    while time.monotonic() - start < limit:
        if computer_moves(s.env, game) > before or game_row(s.env, game)[0] != "active":
            return time.monotonic() - start
        await asyncio.sleep(0.1)
    return None


async def chaos(
    s: State, server: Server, kills: int, clock_every: int, shortcut: bool, mid_thought: bool
) -> dict:
    resumed: list[float] = []
    never: int = 0
    thinking_at_kill = 0
    clock_checks: list[dict] = []
    await asyncio.to_thread(server.start)
    s.up.set()
    players = [
        asyncio.create_task(carol_plays(s, server.url)),
        asyncio.create_task(room_plays(s, server.url)),
    ]
    clock: dict | None = None  # the clock check under way
    last_ready = time.time()
    try:
        while not (s.carol_games and s.rooms):
            await asyncio.sleep(0.2)
        await asyncio.sleep(2)
        for i in range(kills):
            if clock_every and i % clock_every == clock_every - 1 and clock is None:
                room = s.rooms[-1]
                s.room_idle = True  # no one moves: the clock must play for the side to move
                await asyncio.sleep(0.8)  # let a move in flight land
                clock = {"room": room, "before": computer_moves(s.env, room)}
                clock["deadline"] = room_deadline(s.env, room)
            await asyncio.sleep(s.rng.uniform(0.3, 3.0))
            if mid_thought:  # wait for the computer's turn, then kill at once
                limit = time.monotonic() + 20
                while not computer_to_move(s.env, s.carol_games[-1]) and time.monotonic() < limit:
                    await asyncio.sleep(0.02)
                # Within 50 ms: the master answers many opening moves in a tenth of a
                # second, and a kill up to half a second later missed the thought at
                # both kills of a CI run.
                await asyncio.sleep(s.rng.uniform(0, 0.05))
            game = s.carol_games[-1]
            thinking = computer_to_move(s.env, game)
            thinking_at_kill += thinking
            await asyncio.to_thread(server.kill)
            s.up.clear()
            await asyncio.sleep(s.rng.uniform(0.05, 1.0))
            if clock is not None and shortcut and "shortcut" not in clock:
                # The deadline "fell while the server was down" (instead of waiting 30 s).
                clock["shortcut"] = True
                clock["deadline"] = time.time() - 1
                set_deadline(s.env, clock["room"], clock["deadline"])
            await asyncio.to_thread(server.start)
            last_ready = time.time()
            s.up.set()
            # The computer resumes: once its side is to move, it moves (the page polls).
            game = s.carol_games[-1]
            if computer_to_move(s.env, game):
                delay = await wait_for_computer(s, game, computer_moves(s.env, game))
                if delay is None:
                    never += 1
                else:
                    resumed.append(delay)
            if clock is not None:
                clock = await check_clock(s, clock, last_ready, clock_checks, wait=False)
        if clock is not None:
            await check_clock(s, clock, last_ready, clock_checks, wait=True)
    finally:
        s.done = True
        await asyncio.gather(*players, return_exceptions=True)
        await asyncio.to_thread(server.stop)
    return {
        "resumed": resumed,
        "never_resumed": never,
        "thinking_at_kill": thinking_at_kill,
        "clock_checks": clock_checks,
    }


async def check_clock(s: State, clock: dict, last_ready: float, checks: list, *, wait: bool):
    """Has the clock played for the side out of time?  Returns the check still under way."""
    limit = time.time() + (TIMER + 30 if wait else 0)
    while True:
        if computer_moves(s.env, clock["room"]) > clock["before"]:
            now = time.time()
            deadline = clock["deadline"] or now
            checks.append(
                {
                    "late": now - deadline,
                    "late_after_restart": now - max(deadline, last_ready),
                    "shortcut": clock.get("shortcut", False),
                }
            )
            s.room_idle = False
            return None
        if game_row(s.env, clock["room"])[0] != "active":
            s.room_idle = False
            return None
        if clock["deadline"] and time.time() > clock["deadline"] + 30:
            checks.append({"late": None, "late_after_restart": None})
            s.room_idle = False
            return None
        if time.time() >= limit:
            return clock
        await asyncio.sleep(0.1)


def verify(s: State) -> dict:
    """From the database: acknowledged moves stored, and every game replays by the rules."""
    stored = {g: [e for e, _ in stored_moves(s.env, g)] for g in {*s.carol_games, *s.rooms}}
    lost = [(g, e) for g, e in s.acked if e not in stored.get(g, [])]
    bad = 0
    for game, edges in stored.items():
        width = game_row(s.env, game)[2]
        board = Board(width, width)
        try:
            for edge in edges:
                board.play(board.parse_edge(edge))
        except ValueError:
            bad += 1
    return {"lost": lost, "unreplayable": bad, "stored_moves": sum(map(len, stored.values()))}


def run(
    *,
    kills: int,
    database: str,
    port: int = PORT_BASE,
    seed: int = 20,
    clock_every: int = 5,
    shortcut_clock: bool = False,
    mid_thought: bool = False,
) -> dict:
    """Start a fresh site, kill its server ``kills`` times mid-game, and return the figures."""
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        # The Python engine core: the C cores answer most of the master's moves in
        # milliseconds, so a kill would seldom land while the computer thinks, which is
        # what this run is for (the engine's own speed is not under test here).
        with site_env(
            tmp, database=database, RATE_LIMITS_ENABLED="0", DOTSBOXES_ENGINE_BACKEND="python"
        ) as env:
            server = Server(env, port, tmp / "server.log")
            s = State(env=env, rng=random.Random(seed))
            started = time.monotonic()
            result = harness.run_async(
                chaos(s, server, kills, clock_every, shortcut_clock, mid_thought)
            )
            result.update(verify(s))
            result["wall"] = time.monotonic() - started
            result["statuses"] = s.statuses
            result["acked"] = len(s.acked)
            result["games"] = len(s.carol_games)
            result["rooms"] = len(s.rooms)
            result["tracebacks"] = server.tracebacks()
            if result["tracebacks"]:
                result["log_tail"] = server.first_traceback()
    result["errors_5xx"] = sum(v for k, v in result["statuses"].items() if k >= 500)
    return result


def summary(r: dict, *, kills: int, database: str) -> str:
    resumed = r["resumed"]
    delays = (
        f"median {statistics.median(resumed):.1f} s, max {max(resumed):.1f} s"
        if resumed
        else "none measured"
    )
    done = [c for c in r["clock_checks"] if c["late"] is not None]
    clock = (
        f"{len(done)}/{len(r['clock_checks'])} timed-out turns played by the clock, "
        f"at most {max(c['late'] for c in done):.1f} s past the deadline "
        f"({max(c['late_after_restart'] for c in done):.1f} s past deadline or restart)"
        if done
        else f"0/{len(r['clock_checks'])} timed-out turns played"
    )
    return (
        f"kills db={database}: {kills} SIGKILLs of the server's process group "
        f"({r['thinking_at_kill']} while the computer thought), {r['acked']} acknowledged moves, "
        f"{len(r['lost'])} lost, {r['unreplayable']} games that do not replay; computer moved "
        f"again after {len(resumed)} restarts ({r['never_resumed']} never): {delays}; {clock}; "
        f"{r['errors_5xx']} responses >= 500, {r['tracebacks']} tracebacks; "
        f"{r['games']} games vs the master, {r['rooms']} rooms, {r['wall']:.0f} s wall "
        f"{dict(r['statuses'])}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--seed", type=int, default=20)
    args = parser.parse_args()
    r = run(kills=args.kills, database=args.database, seed=args.seed)
    print(summary(r, kills=args.kills, database=args.database), flush=True)
    if r.get("log_tail"):
        print(r["log_tail"])


if __name__ == "__main__":
    main()
