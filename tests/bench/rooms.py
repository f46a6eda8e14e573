"""Benchmark of online rooms: real Daphne servers, real WebSockets (a script, not a test).

    python tests/bench/rooms.py                                   # 200 games x 10 spectators
    python tests/bench/rooms.py --games 20 --spectators 3 --moves 10   # a quick look
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/db_rooms_bench \\
    REDIS_URL=redis://127.0.0.1:6379/5 python tests/bench/rooms.py --processes 2

Empties the database, starts ``--processes`` servers (PostgreSQL + channels-redis when
``DATABASE_URL``/``REDIS_URL`` are set; a SQLite file and, with one process, the
in-memory layer otherwise), opens ``--games`` rooms with two players each and
``--spectators`` anonymous spectators per room, spread over the servers, then
has every game draw ``--moves`` edges, one every ``--pace`` seconds (jittered).
It prints the bytes of each move's push as received (median, p95, max) and the
servers' CPU time per move (from ``/proc``, all server processes together).
For each move it measures the time from sending the POST to the push with the
new version arriving at the opponent and at each spectator, and counts version
gaps (a push that skips a version) and pushes that never arrived.  The client
runs on the same machine as the servers: on a shared 2-core box the numbers
include its own CPU use, so read them as an upper bound.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from dotsboxes.rules import Board  # noqa: E402
from tests.rooms.live import server_command, stop  # noqa: E402

CONNECTING = asyncio.Semaphore(50)  # sockets opening at once (a crowd, not a stampede)
VERSION_RE = re.compile(r'data-version="(\d+)" data-kind="(\w+)"')


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process (Linux ``/proc``), 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_bytes(pid: int) -> int:
    """Resident memory of one process (Linux ``/proc``), 0 if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def machine_busy_seconds() -> float:
    """CPU seconds spent on anything but idle and I/O wait, summed over all cores."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(values) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")


def service_cpu_seconds(database: str) -> tuple[float, float]:
    """CPU seconds of the PostgreSQL backends serving ``database`` and of redis-server
    (processes alive at both readings: the servers keep pooled connections)."""
    pg = redis = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if cmdline.startswith("postgres: ") and f" {database} " in cmdline:
            pg += cpu_seconds(int(entry.name))
        elif "redis-server" in cmdline.split(" ", 1)[0]:
            redis += cpu_seconds(int(entry.name))
    return pg, redis


def client_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def start_servers(args: argparse.Namespace, tmp: Path) -> tuple[list[subprocess.Popen], str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DJANGO_SETTINGS_MODULE="dotsboxes.settings",
        # As in production (no SQL kept per query), but over plain HTTP on localhost.
        DEBUG="0",
        SECRET_KEY=f"bench-{uuid.uuid4().hex}",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        SECURE_HSTS_SECONDS="0",
        LOG_LEVEL="WARNING",
        CHANNEL_PREFIX=f"bench-{uuid.uuid4().hex[:6]}",
        ROOMS_CHAT_BURST="1000",
        # Every simulated person comes from this one address: 200 rooms' sockets would
        # meet the per-address handshake limit (120 a minute) that real people never share.
        RATE_LIMITS_ENABLED="0",
    )
    if not env.get("DATABASE_URL"):
        env["SQLITE_PATH"] = str(tmp / "bench.sqlite3")
    if args.processes > 1 and not env.get("REDIS_URL"):
        sys.exit("several processes need a shared channel layer: set REDIS_URL")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    # Empty it: rooms left active by an earlier run have lost their players, and the
    # room clock would play them out with the computer during this one.
    subprocess.run(
        [sys.executable, "manage.py", "flush", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    layer = "in-memory"
    if env.get("REDIS_URL"):
        kind = "pub/sub" if env.get("CHANNEL_LAYER", "pubsub") == "pubsub" else "lists"
        layer = f"channels-redis ({kind})"
    db = "PostgreSQL" if env.get("DATABASE_URL", "").startswith("postgres") else "SQLite"
    procs = []
    for i in range(args.processes):
        log = open(Path(tempfile.gettempdir()) / f"rooms-bench-server-{i}.log", "w")  # noqa: SIM115
        procs.append(
            subprocess.Popen(
                server_command(args.server, args.port + i, quiet=True),
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
    name = "Daphne" if args.server == "daphne" else "uvicorn"
    return procs, f"{args.processes} {name} process(es), {layer} layer, {db}"


async def wait_up(session: aiohttp.ClientSession, base: str) -> None:
    for _ in range(300):
        try:
            async with session.get(base + "/healthz") as r:
                if r.status == 200:
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.1)
    raise RuntimeError(f"{base} did not start")


class Player:
    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies: dict[str, str] = {}

    def headers(self, **extra: str) -> dict[str, str]:
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return {"Cookie": cookie, "X-CSRFToken": self.cookies.get("csrftoken", ""), **extra}

    def keep(self, response: aiohttp.ClientResponse) -> None:
        for name, morsel in response.cookies.items():
            self.cookies[name] = morsel.value

    async def post(self, session, path: str, data: dict, **headers: str):
        async with session.post(
            self.base + path, data=data, headers=self.headers(**headers), allow_redirects=False
        ) as r:
            self.keep(r)
            return r.status, r.headers.get("Location", ""), await r.text()


class Stats:
    def __init__(self) -> None:
        self.sent: dict[tuple[int, int], float] = {}  # (game, version) -> POST start
        self.mover: dict[tuple[int, int], str] = {}  # (game, version) -> "blue"/"red"
        self.opponent: list[float] = []
        self.spectator: list[float] = []
        self.gaps = 0
        self.seen: dict[tuple[int, str], set[int]] = defaultdict(set)
        self.errors: list[str] = []
        self.push_bytes: list[int] = []  # each move's push as it arrived (a text frame)


async def listen(
    session,
    base: str,
    public_id: str,
    game: int,
    role: str,
    stats: Stats,
    ready: asyncio.Event,
    cookies: str = "",
) -> None:
    url = base.replace("http", "ws") + f"/ws/rooms/{public_id}/"
    headers = {"Origin": base, **({"Cookie": cookies} if cookies else {})}
    key = (game, f"{role}-{uuid.uuid4().hex[:6]}")
    try:
        async with CONNECTING:
            ws = await session.ws_connect(url, headers=headers, max_msg_size=0)
    except (TimeoutError, aiohttp.ClientError) as exc:
        stats.errors.append(f"socket: {exc!r}")
        ready.set()
        return
    await _receive(ws, key, game, role, stats, ready)


async def _receive(ws, key, game, role, stats, ready) -> None:
    last = None
    async with ws:
        stats.seen[key] = set()
        ready.set()
        async for msg in ws:
            now = time.perf_counter()
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            match = VERSION_RE.search(msg.data, 0, 400)
            if not match:
                continue
            version, kind = int(match[1]), match[2]
            if kind == "hello":
                last = version
                continue
            if kind != "game":
                continue
            stats.push_bytes.append(len(msg.data.encode()))
            if last is not None and version > last + 1:
                stats.gaps += 1
            last = max(last or 0, version)
            stats.seen[key].add(version)
            started = stats.sent.get((game, version))
            if started is None:
                continue
            if role == "spectator":
                stats.spectator.append(now - started)
            elif role != stats.mover.get((game, version)):
                stats.opponent.append(now - started)


def client_session(total_timeout: float) -> aiohttp.ClientSession:
    """The benchmark's HTTP client: cookies kept by hand (one browser per player), and no
    pool limit: every WebSocket holds its connection for the whole run, and a limit
    would leave later sockets queued for a free slot forever."""
    return aiohttp.ClientSession(
        cookie_jar=aiohttp.DummyCookieJar(),
        timeout=aiohttp.ClientTimeout(total=total_timeout),
        connector=aiohttp.TCPConnector(limit=0),
    )


async def run(args: argparse.Namespace, bases: list[str], pids: list[int]) -> Stats:
    stats = Stats()
    async with client_session(60) as session:
        for base in bases:
            await wait_up(session, base)
        rss0 = sum(rss_bytes(p) for p in pids)
        games = []
        sem = asyncio.Semaphore(20)

        async def open_game(i: int):
            async with sem:
                host, guest = Player(bases[i % len(bases)]), Player(bases[(i + 1) % len(bases)])
                for p in (host, guest):
                    async with session.get(p.base + "/rooms/", headers=p.headers()) as r:
                        p.keep(r)
                form = {
                    "width": 5,
                    "height": 5,
                    "side": "blue",
                    "timer": 0,
                    "visibility": "public",
                    "name": f"Host {i}",
                }
                status, location, _ = await host.post(session, "/rooms/new", form)
                assert status == 302, status
                status, _, _ = await guest.post(session, location + "join", {"name": f"Guest {i}"})
                assert status == 302, status
                async with session.get(host.base + location, headers=host.headers()) as r:
                    version = int(re.search(r'data-version="(\d+)"', await r.text())[1])
                return i, location.strip("/").split("/")[-1], location, host, guest, version

        t0 = time.perf_counter()
        games = await asyncio.gather(*(open_game(i) for i in range(args.games)))
        print(f"opened {len(games)} rooms in {time.perf_counter() - t0:.1f} s", flush=True)

        listeners, readies = [], []
        for i, public_id, _, host, guest, _version in games:
            for role, player in (("blue", host), ("red", guest)):
                ev = asyncio.Event()
                readies.append(ev)
                cookie = "; ".join(f"{k}={v}" for k, v in player.cookies.items())
                listeners.append(
                    asyncio.create_task(
                        listen(session, player.base, public_id, i, role, stats, ev, cookie)
                    )
                )
            for s in range(args.spectators):
                ev = asyncio.Event()
                readies.append(ev)
                base = bases[(i + s) % len(bases)]
                listeners.append(
                    asyncio.create_task(listen(session, base, public_id, i, "spectator", stats, ev))
                )
            if len(readies) % 200 == 0:
                await asyncio.sleep(0.05)  # do not open thousands of sockets in one burst
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in readies)), timeout=300)
        print(f"{len(readies)} sockets open after {time.perf_counter() - t0:.1f} s", flush=True)
        # The servers' memory per socket: what opening the rooms and sockets added.
        stats.memory = (sum(rss_bytes(p) for p in pids) - rss0, len(readies))  # type: ignore[attr-defined]
        await asyncio.sleep(3)  # let presence pushes settle

        async def play(i: int, _id: str, location: str, host: Player, guest: Player, version: int):
            board = Board(5, 5)
            rng = random.Random(i)
            await asyncio.sleep(rng.random() * args.pace)
            for _ in range(args.moves):
                side = "blue" if board.turn.name == "BLUE" else "red"
                player = host if side == "blue" else guest
                edge = rng.choice(board.legal_moves)
                stats.mover[(i, version + 1)] = side
                stats.sent[(i, version + 1)] = time.perf_counter()
                try:
                    status, _, text = await player.post(
                        session,
                        location + "move",
                        {"edge": str(edge), "version": version},
                        **{"HX-Request": "true"},
                    )
                except (TimeoutError, aiohttp.ClientError) as exc:
                    stats.errors.append(f"game {i}: {exc!r}")
                    return
                if status != 200:
                    stats.errors.append(f"game {i}: {status} {text[:120]}")
                    return
                board.play(edge)
                version += 1
                # The opponent's turn follows the rules; keep its role right for the push.
                await asyncio.sleep(args.pace * (0.5 + rng.random()))

        t1 = time.perf_counter()
        database = os.environ.get("DATABASE_URL", "").rsplit("/", 1)[-1]
        cpu0 = (
            [cpu_seconds(p) for p in pids],
            client_cpu_seconds(),
            machine_busy_seconds(),
            service_cpu_seconds(database),
        )
        await asyncio.gather(*(play(*g) for g in games))
        await asyncio.sleep(2)  # last pushes
        elapsed = time.perf_counter() - t1
        stats.cpu = (  # type: ignore[attr-defined]
            sum(cpu_seconds(p) for p in pids) - sum(cpu0[0]),
            client_cpu_seconds() - cpu0[1],
            machine_busy_seconds() - cpu0[2],
            *(b - a for a, b in zip(cpu0[3], service_cpu_seconds(database), strict=True)),
        )
        stats.load = os.getloadavg()  # type: ignore[attr-defined]
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
        stats.elapsed = elapsed  # type: ignore[attr-defined]
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=10)
    parser.add_argument("--processes", type=int, default=2 if os.environ.get("REDIS_URL") else 1)
    parser.add_argument("--moves", type=int, default=20, help="edges drawn per game")
    parser.add_argument(
        "--pace", type=float, default=3.0, help="mean seconds between a game's moves"
    )
    parser.add_argument("--port", type=int, default=8550)
    parser.add_argument("--server", choices=("uvicorn", "daphne"), default="uvicorn")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        procs, setup = start_servers(args, Path(tmp))
        try:
            bases = [f"http://127.0.0.1:{args.port + i}" for i in range(args.processes)]
            stats = asyncio.run(run(args, bases, [p.pid for p in procs]))
        finally:
            stop(procs, timeout=15)
    report(args, setup, stats)


def report(args: argparse.Namespace, setup: str, stats: Stats) -> None:
    moves = len(stats.sent)
    by_game: dict[int, set[int]] = defaultdict(set)
    for game, version in stats.sent:
        by_game[game].add(version)
    missing = sum(len(by_game[game] - seen) for (game, _who), seen in stats.seen.items())
    print(f"\n{setup}; {args.games} games x (2 players + {args.spectators} spectators)")
    print(
        f"{moves} moves in {stats.elapsed:.1f} s ({moves / stats.elapsed:.1f} moves/s), "
        f"{len(stats.opponent) + len(stats.spectator)} pushes timed"
    )
    for line in stats.errors[:5]:
        print("  ", line)
    for name, values in (("opponent", stats.opponent), ("spectators", stats.spectator)):
        if not values:
            print(f"no push reached the {name}")
            continue
        ms = [v * 1000 for v in values]
        print(
            f"POST -> push at {name:10}: median {statistics.median(ms):7.1f} ms   "
            f"p99 {percentile(ms, 0.99):7.1f} ms   max {max(ms):7.1f} ms   (n={len(ms)})"
        )
    print(
        f"version gaps: {stats.gaps}   pushes never received: {missing}   "
        f"errors: {len(stats.errors)}"
    )
    if stats.push_bytes:
        print(
            f"move push on the wire: median {statistics.median(stats.push_bytes):.0f} B   "
            f"p95 {percentile(stats.push_bytes, 0.95):.0f} B   max {max(stats.push_bytes)} B   "
            f"(n={len(stats.push_bytes)}, payload of the WebSocket text frame)"
        )
    added, sockets = getattr(stats, "memory", (0, 0))
    if sockets:
        print(
            f"server memory: +{added / 2**20:.0f} MiB for {sockets} sockets and their rooms, "
            f"{added / sockets / 1024:.1f} KiB per socket"
        )
    servers, client, machine, pg, redis = stats.cpu
    per_move = 1000 / max(moves, 1)
    print(
        f"CPU per move: servers {servers * per_move:.1f} ms, benchmark client "
        f"{client * per_move:.1f} ms, PostgreSQL {pg * per_move:.1f} ms, Redis "
        f"{redis * per_move:.1f} ms, whole machine {machine * per_move:.1f} ms "
        f"(machine busy {machine / stats.elapsed / os.cpu_count():.0%} of "
        f"{os.cpu_count()} cores; load average at the end {stats.load[0]:.2f})"
    )


if __name__ == "__main__":
    main()
