"""The site as separate processes: web, engine workers and two room clocks, on PostgreSQL + Redis.

One module-scoped set of processes on a fresh database (started once: it is
the slow part): a uvicorn web process with ``ENGINE_QUEUE=1`` and
``ROOMS_TICKER=worker`` (it starts no engine pool and runs no clock), one
``manage.py engine_worker`` command and two ``manage.py rooms_ticker``
processes.  The tests talk to the site over HTTP only, and read what it stored
straight from its database (psycopg, no Django models: the servers' database is
not the test database).

- A browser plays a whole game against the master; one engine worker is
  SIGKILLed during the game.  The game must end with every edge drawn once.
- Two browsers play a room game to the end, edge by edge, as plain form posts
  and htmx posts.
- Six timed rooms run out of time at once, three times: with both clocks
  running freely; with one clock held back (SIGSTOP) after it read the first
  room out of time, until the other has applied every timeout; and after one
  clock was SIGKILLed.  Each time, every timeout is applied exactly once, by
  one clock, and the survivor of the kill carries on alone.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis
from django.conf import settings

from dotsboxes.games.models import Side
from dotsboxes.jobs.worker import live_workers
from dotsboxes.rules import Board
from dotsboxes.rules.notation import parse_record
from tests.games.test_restart import Browser, kill, start
from tests.rooms.live import ROOT, drop_database, server_env, worker_ports

pytestmark = pytest.mark.skipif(
    not settings.REDIS_URL or "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="the queue needs Redis, and web and workers one database they share",
)

SLOT = re.compile(r'<g class="slot" data-edge="([a-z]\d+-[a-z]\d+)"')
VERSION = re.compile(r'id="game"[^>]*data-version="(\d+)"')
# A room page: its sync element (the version, and whose turn while the game is on)
# and the click targets over the undrawn edges.
ROOM_SYNC = re.compile(r'id="room-sync"[^>]*data-version="(\d+)"[^>]*data-turn="(\w*)"')
ROOM_TARGET = re.compile(r'class="edge-target" id="rt-[^"]+" data-edge="([a-z]\d+-[a-z]\d+)"')
TIMEOUT_LINE = "Time ran out for %(name)s: the computer drew %(listed)s."
CLOCKS = ("clock-1", "clock-2")


def spawn(env: dict[str, str], *command: str, log: Path) -> subprocess.Popen:
    with open(log, "a") as out:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


@dataclass
class Site:
    env: dict[str, str]
    base: str
    namespace: str
    logs: Path
    processes: dict[str, subprocess.Popen]

    def db(self):
        import psycopg

        return psycopg.connect(self.env["DATABASE_URL"], autocommit=True)

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text()

    def all_logs(self) -> str:
        """Every process's log (their tails), for a failure message."""
        return "\n".join(
            f"--- {path.name}\n{path.read_text()[-4000:]}"
            for path in sorted(self.logs.glob("*.log"))
        )


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    logs = tmp_path_factory.mktemp("processes")
    namespace = f"test-{uuid.uuid4().hex[:8]}"
    env = server_env(
        logs,
        ENGINE_QUEUE="1",
        ENGINE_QUEUE_NAMESPACE=namespace,
        ROOMS_TICKER="worker",
        # Every browser here comes from 127.0.0.1, and the per-address counts live
        # in the Redis the whole suite shares (tests/conftest.py turns them off too).
        RATE_LIMITS_ENABLED="0",
        # The clocks say at INFO which timeouts they applied; the test reads it.
        LOG_LEVEL="INFO",
    )
    processes: dict[str, subprocess.Popen] = {}
    try:
        processes["workers"] = spawn(
            env, "engine_worker", "--play", "2", "--background", "1", log=logs / "workers.log"
        )
        for name in CLOCKS:
            processes[name] = spawn(env, "rooms_ticker", log=logs / f"{name}.log")
        port = worker_ports(1)[0]
        processes["web"] = start(env, port, logs / "web.log")
        site = Site(env, f"http://127.0.0.1:{port}", namespace, logs, processes)
        deadline = time.monotonic() + 60
        while len(live_workers(namespace)) < 3:
            assert time.monotonic() < deadline, site.all_logs()
            time.sleep(0.1)
        yield site
    finally:
        for process in processes.values():
            kill(process)
        with contextlib.suppress(Exception):
            drop_database(env)


def test_a_game_against_the_computer_runs_through_separate_worker_processes_and_survives_a_kill(
    site,
):
    alice = Browser(site.base)
    assert alice.request("/healthz/workers")[0] == 200
    assert alice.request("/play/")[0] == 200
    form = {"mode": "computer", "size": "custom", "width": 3, "height": 3}
    status, headers, _ = alice.request("/play/", form | {"side": "blue", "level": "master"})
    assert status == 302
    game = headers["Location"]
    killed = None
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        page = alice.request(game)[2]
        if "Computer is thinking…" in page:
            if killed is None:  # once: the busy worker if one is seen, else any play worker
                play = [w for w in live_workers(site.namespace) if w["lane"] == "play"]
                victim = next((w for w in play if w["busy"]), play[0])
                os.kill(victim["pid"], signal.SIGKILL)
                killed = victim["pid"]
            time.sleep(0.05)
            continue
        slots = SLOT.findall(page)
        if not slots:
            break  # the game is over
        version = VERSION.search(page).group(1)
        status, _, _ = alice.request(game + "move", {"edge": slots[0], "version": version})
        assert status in (200, 302)
    else:
        raise AssertionError("the game did not end within 90 s\n" + site.all_logs())

    assert killed is not None
    record = alice.request(game + "record.txt")[2]
    board = parse_record(record).board()  # replayed by the rules: each edge legal, once
    assert board.is_over() and len(board.move_stack) == 24, record
    assert site.processes["workers"].poll() is None  # the supervisor lives on
    assert all(site.processes[name].poll() is None for name in CLOCKS)
    assert alice.request("/healthz")[0] == 200
    # The web process thought about none of it: with the queue it starts no engine pool,
    # which would be a child process (multiprocessing's fork server) of the web process.
    assert children(site.processes["web"].pid) == []


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc: field 4 of each stat file)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):  # a process that ended meanwhile
            if int(stat.read_text().rpartition(")")[2].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def open_room(host: Browser, guest: Browser, *, width: int, height: int, timer: int) -> str:
    """The host opens a room with the lobby's form, as Blue; the guest takes the other seat.
    Returns the room's path."""
    assert host.request("/rooms/")[0] == 200  # the lobby: its form sets the CSRF cookie
    form = {"width": width, "height": height, "side": "blue", "timer": timer}
    status, headers, body = host.request(
        "/rooms/new", form | {"visibility": "public", "name": "Alice"}
    )
    assert status == 302, body
    room = headers["Location"]
    assert guest.request(room)[0] == 200  # the room page with its join form
    status, headers, body = guest.request(room + "join", {"name": "Bob"})
    assert status == 302 and headers["Location"] == room, body
    return room


def test_a_room_game_between_two_browsers_is_played_to_the_end_through_the_separate_processes(
    site,
):
    alice, bob = Browser(site.base), Browser(site.base)  # two cookie jars: two sessions
    width, height = 3, 2
    edges = width * (height + 1) + (width + 1) * height
    room = open_room(alice, bob, width=width, height=height, timer=0)
    players = {"blue": alice, "red": bob}
    drawn: list[str] = []
    while True:
        version, turn = ROOM_SYNC.search(alice.request(room)[2]).groups()
        if not turn:
            break  # the game is over
        mover = players[turn]
        page = mover.request(room)[2]  # the mover's own page, as they would click on it
        targets = ROOM_TARGET.findall(page)
        assert targets and ROOM_SYNC.search(page).groups() == (version, turn), page
        edge = targets[0]
        # Blue posts the plain form (a browser without JavaScript), Red as htmx does.
        data = {"edge": edge, "version": version}
        status, headers, body = mover.request(room + "move", data, htmx=turn == "red")
        if turn == "red":
            assert status == 200 and f'data-version="{int(version) + 1}"' in body, body
        else:
            assert status == 302 and headers["Location"] == room, body
        drawn.append(edge)
        assert len(drawn) <= edges, "more moves than edges"

    assert len(drawn) == edges and len(set(drawn)) == edges
    public_id = room.strip("/").split("/")[-1]
    with site.db() as db:
        status, blue, red, game_id = db.execute(
            "SELECT status, blue_score, red_score, id FROM games_game WHERE public_id = %s",
            [public_id],
        ).fetchone()
        moves = db.execute(
            "SELECT edge, side, by_computer FROM games_move WHERE game_id = %s ORDER BY ply",
            [game_id],
        ).fetchall()
    assert status == "finished"
    # Stored once each, in the order posted, each by the player who posted it.
    assert [edge for edge, _, _ in moves] == drawn
    assert not any(by_computer for _, _, by_computer in moves)
    board = Board(width, height)  # the stored moves replayed by the rules: each legal, once
    for edge, side, _ in moves:
        assert Side.of(board.turn) == side, moves  # stored for the side that was to move
        board.play(board.parse_edge(edge))
    assert board.is_over()
    assert (blue, red) == tuple(board.scores) and blue + red == width * height
    page = bob.request(room)[2]
    if blue == red:
        result = f"A tie: {blue}-{red}."
    else:
        result = f"{'Alice (Blue)' if blue > red else 'Bob (Red)'} wins, {blue}-{red}."
    assert result in page and not ROOM_TARGET.search(page), page


# -- the room clock in two processes ------------------------------------------------------


def clock_pids(site: Site, names) -> list[int]:
    return [site.processes[name].pid for name in names]


def beats(db, pids: list[int]) -> dict[int, object]:
    """The last beat of each clock process (its ``ServerBeat`` row, named after its pid)."""
    rows = db.execute("SELECT server, last_seen FROM rooms_serverbeat").fetchall()
    found = {int(server.split("-")[0]): seen for server, seen in rows}
    return {pid: found[pid] for pid in pids if pid in found}


def timeout_lines(db, room_id: int) -> list[str]:
    """The edges listed by each "time ran out" system line of a room, oldest first."""
    rows = db.execute(
        "SELECT params->>'listed' FROM rooms_message WHERE room_id = %s AND kind = 'system'"
        " AND text = %s ORDER BY id",
        [room_id, TIMEOUT_LINE],
    ).fetchall()
    return [listed for (listed,) in rows]


def snapshot(db, room_id: int) -> dict:
    version, to_move, deadline, status, game_id = db.execute(
        "SELECT g.version, r.to_move, r.turn_deadline, g.status, g.id"
        " FROM rooms_room r JOIN games_game g ON g.id = r.game_id WHERE r.id = %s",
        [room_id],
    ).fetchone()
    moves = db.execute(
        "SELECT edge, side, by_computer, created_at FROM games_move WHERE game_id = %s"
        " ORDER BY ply",
        [game_id],
    ).fetchall()
    return {
        "version": version,
        "to_move": to_move,
        "deadline": deadline,
        "status": status,
        "moves": moves,
        "lines": timeout_lines(db, room_id),
    }


def expire(site: Site, room_ids: list[int], clocks: tuple[str, ...]) -> tuple[dict, object]:
    """Each room as it is, and the moment its turn deadline was moved to (one commit)."""
    with site.db() as db:
        # Both clocks run: each must have beaten (ticked) before the race starts.
        pids = clock_pids(site, clocks)
        deadline = time.monotonic() + 30
        while len(beats(db, pids)) < len(pids):
            assert time.monotonic() < deadline, "a clock never ticked\n" + site.all_logs()
            time.sleep(0.1)

        # Lock the rows while reading what is there and moving the deadlines: the clocks
        # claim rows with SKIP LOCKED and pass over these until the commit, so nothing
        # can happen in between.  (clock_timestamp(): the first room's, microseconds
        # before the others'.)
        with db.transaction():
            db.execute(
                "SELECT 1 FROM rooms_room r JOIN games_game g ON g.id = r.game_id"
                " WHERE r.id = ANY(%s) FOR UPDATE",
                [room_ids],
            )
            before = {room_id: snapshot(db, room_id) for room_id in room_ids}
            (due,) = db.execute(
                "UPDATE rooms_room SET turn_deadline = clock_timestamp() WHERE id = ANY(%s)"
                " RETURNING turn_deadline",
                [room_ids],
            ).fetchone()
    assert all(b["status"] == "active" and b["deadline"] for b in before.values())
    return before, due


def run_out_of_time(
    site: Site, room_ids: list[int], clocks: tuple[str, ...], *, late: str = ""
) -> list[float]:
    """Put every room's turn deadline at now, all at once, and check that ``clocks`` apply
    each timeout exactly once.  Returns the seconds from the deadline to each timeout's
    edges being stored.

    ``late``: a clock made to come too late, on purpose.  A clock reads a due room,
    asks the engine for the edge over the queue, and only then claims the rows.  The
    engine workers are stopped (SIGSTOP) until every clock waits for an edge for the
    first room; then ``late`` is stopped in that wait, and goes on only once the others
    have applied every timeout.  It then claims the first room with what it read before
    that room's timeout was applied: the checks under the claim (the version) must turn
    it away."""
    start = {name: len(site.log(name)) for name in CLOCKS}  # what they said before
    pids = clock_pids(site, clocks)
    paused = [site.processes["workers"]] if late else []
    jobs, queue = redis.Redis.from_url(site.env["REDIS_URL"]), f"{site.namespace}:play"
    try:
        for process in paused:
            os.killpg(process.pid, signal.SIGSTOP)  # the supervisor and its worker processes
        waiting = jobs.llen(queue)  # none, unless something else is still waiting
        before, due = expire(site, room_ids, clocks)
        with site.db() as db:
            if late:
                deadline = time.monotonic() + 30
                while jobs.llen(queue) < waiting + len(clocks):
                    assert time.monotonic() < deadline, "no job came\n" + site.all_logs()
                    time.sleep(0.02)
                # One job per clock and nothing applied: each read the first room out of
                # time and waits (5 s at most, then the clock answers in-thread).
                assert all(snapshot(db, r)["version"] == before[r]["version"] for r in room_ids)
                paused.append(site.processes[late])
                os.killpg(site.processes[late].pid, signal.SIGSTOP)
                os.killpg(site.processes["workers"].pid, signal.SIGCONT)
            deadline = time.monotonic() + 30
            while True:
                after = {room_id: snapshot(db, room_id) for room_id in room_ids}
                if all(after[r]["version"] > before[r]["version"] for r in room_ids):
                    break
                assert time.monotonic() < deadline, "a timeout not applied\n" + site.all_logs()
                time.sleep(0.1)
            applied = max(move[3] for a in after.values() for move in a["moves"])
            if late:
                os.killpg(site.processes[late].pid, signal.SIGCONT)
            # Wait until every clock has begun a tick after the last timeout was stored: a
            # clock that read a room before that commit has then finished with it, and any
            # second application would be in the database by now.
            deadline = time.monotonic() + 30
            while not all(seen > applied for seen in beats(db, pids).values()):
                assert time.monotonic() < deadline, "a clock stopped ticking\n" + site.all_logs()
                time.sleep(0.2)
            after = {room_id: snapshot(db, room_id) for room_id in room_ids}
    finally:
        for process in paused:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGCONT)

    logs = {name: site.log(name)[start[name] :] for name in CLOCKS}
    # A clock turned away returns quietly; one that got as far as the database's unique
    # constraints on the moves (a second application refused there) logs the failure.
    assert not any("room clock failed" in log for log in logs.values()), logs
    seconds = []
    for room_id in room_ids:
        b, a = before[room_id], after[room_id]
        new = a["moves"][len(b["moves"]) :]
        assert a["moves"][: len(b["moves"])] == b["moves"]  # nothing before it changed
        # Exactly one timeout: one version bump, one system line listing exactly the new
        # edges, all drawn by the computer for the side whose time ran out; the turn passed
        # and the other side's clock started again.
        assert a["version"] == b["version"] + 1, (b, a)
        assert a["lines"] == [*b["lines"], ", ".join(edge for edge, *_ in new)], (b, a)
        assert new and all(side == b["to_move"] and by for _, side, by, _ in new), new
        assert a["status"] == "active" and a["to_move"] != b["to_move"]
        assert a["deadline"] > due
        # And by one clock: the one whose log says so.
        said = {name: log.count(f"room {room_id}: timeout for ") for name, log in logs.items()}
        done = [name for name, count in said.items() if count]
        assert len(done) == 1 and said[done[0]] == 1 and done[0] in clocks, said
        seconds.append(max((m[3] - due).total_seconds() for m in new))
    share = {
        name: sum(f"room {r}: timeout for " in logs[name] for r in room_ids) for name in CLOCKS
    }
    print(f"timeouts applied by {share}; seconds after the deadline: {sorted(seconds)}")
    return seconds


def test_two_room_clocks_apply_each_timeout_once_and_one_survives_the_other_being_killed(site):
    alice, bob = Browser(site.base), Browser(site.base)
    # Several rooms out of time at once, so that the two clocks meet on the same rows.
    rooms = [open_room(alice, bob, width=3, height=2, timer=30) for _ in range(6)]
    public_ids = [room.strip("/").split("/")[-1] for room in rooms]
    with site.db() as db:
        room_ids = [
            room_id
            for (room_id,) in db.execute(
                "SELECT r.id FROM rooms_room r JOIN games_game g ON g.id = r.game_id"
                " WHERE g.public_id = ANY(%s)",
                [public_ids],
            ).fetchall()
        ]
    assert len(room_ids) == len(rooms)

    killed, survivor = CLOCKS
    # Blue's time runs out in every room, with both clocks running: they share the work.
    run_out_of_time(site, room_ids, CLOCKS)
    # Red's: one clock reads the first room out of time but claims it only after the
    # other has applied that timeout (and all the others).
    run_out_of_time(site, room_ids, CLOCKS, late=survivor)

    # One clock dies outright; Blue's time runs out again, and the survivor plays alone.
    kill(site.processes[killed])
    assert site.processes[killed].poll() is not None
    run_out_of_time(site, room_ids, (survivor,))

    # The room page shows the three computer edges, each once, and Red to move.
    page = bob.request(rooms[0])[2]
    assert ROOM_SYNC.search(page).group(2) == "red"
    assert len(re.findall(r'class="edge drawn by-\w+"', page)) == 3, page
