"""Forged, stale, duplicate and out-of-turn posts to every POST endpoint of the site.

    python -m tests.chaos.bad_posts [--database sqlite|postgres]

The endpoints come from the URLconf: every pattern whose view accepts POST
(read from ``require_http_methods`` and class-based views' handlers; a view that
says nothing counts as accepting POST) must have cases here, or the run lists
it as not covered and fails.  A pattern that takes GET only is posted to once
with a good CSRF token and must answer 405.  The admin's patterns (Django's
own) all get the same two cases: a post without CSRF token and a post by a
signed-in player who is not staff.

Every case is posted to a real uvicorn server by personas with their own
sessions: Alice and Bob (seated in rooms, Alice owns games against the
computer), a stranger, Carol (signed in, not staff) and Sam (staff).  Forged
posts go without a CSRF token, with another session's token, and from a foreign
``Origin``.  Each refusal must be a plain message (a 4xx; or where the page is
built so, the form or game panel again with its error, or a redirect to sign
in) and leave the database exactly as it was: every table (sessions, sign-in
attempts and the servers' heartbeat excepted) is read before and after the post,
or the rows a case names.  For a duplicate the first post must succeed and the
second change nothing.

The bot API, the bot pages and the puzzle trainer have their cases in
:mod:`tests.chaos.bad_posts_apps`: the API is CSRF-exempt by design, so its
forgeries are calls without a valid token (401), and its refusals are the JSON
statuses docs/API.md gives (403, 404, 409 and 422 with the game's state, 400).
Their tables (bot flags, tokens but for when one was last used, challenges,
puzzle attempts and ratings) are watched like every other (``MUST_WATCH``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from tests.chaos import harness
from tests.chaos.harness import PORT_BASE, query, servers, site_env

GAME_VERSION = re.compile(r'id="game" class="game" data-version="(\d+)"')
SLOT = re.compile(r'class="slot" data-edge="([^"]+)"')
ROOM_SYNC = re.compile(r'id="room-sync"[^>]*data-version="(\d+)"[^>]*data-turn="(\w*)"')
PASSWORD = "correct horse battery 13"
#: Tables a refused post may still write: the visitor's session, django-axes'
#: record of a failed sign-in (that is its job), the servers' heartbeat.
UNWATCHED = ("django_session", "axes_", "rooms_serverbeat", "leases_lease")
#: Columns a refused post may still write: when a token was last used (at most once a
#: minute, on any authenticated call, refused or not).  The rest of the row is watched.
UNWATCHED_COLUMNS = {"api_apitoken": ("last_used_at",)}
#: Tables that must be among the watched ones (a prefix above must not hide them).
MUST_WATCH = (
    "games_game",
    "rooms_room",
    "api_botaccount",
    "api_apitoken",
    "api_challenge",
    "puzzles_puzzle",
    "puzzles_puzzleattempt",
    "puzzles_puzzlerating",
    "tournaments_tournament",
    "tournaments_entry",
    "tournaments_pairing",
)
API_TOKEN = re.compile(r'id="new-token">([^<]+)<')


# -- which endpoints take POST ---------------------------------------------------------


def post_endpoints() -> list[dict]:
    """Every URL pattern with its name and whether its view takes POST."""
    import django
    from django.conf import settings

    if not settings.configured:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dotsboxes.settings")
        django.setup()
    from django.urls import URLResolver, get_resolver

    def walk(resolver, prefix="", namespace=""):
        for p in resolver.url_patterns:
            if isinstance(p, URLResolver):
                ns = ":".join(filter(None, [namespace, p.namespace]))
                yield from walk(p, prefix + str(p.pattern), ns)
            else:
                name = ":".join(filter(None, [namespace, p.name or f"<{prefix}{p.pattern}>"]))
                yield prefix + str(p.pattern), name, p.callback

    found = []
    for route, name, callback in walk(get_resolver()):
        methods = view_methods(callback)
        found.append({"route": route, "name": name, "post": methods is None or "POST" in methods})
    return found


def view_methods(callback) -> set[str] | None:
    """The methods a view accepts, or None when it does not restrict them."""
    view_class = getattr(callback, "view_class", None)
    if view_class is not None:
        return {m.upper() for m in view_class.http_method_names if hasattr(view_class, m)}
    function = callback
    while function is not None:  # require_http_methods keeps its list in a closure
        for cell in getattr(function, "__closure__", None) or ():
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if (
                isinstance(value, list | tuple)
                and value
                and all(isinstance(m, str) and m.isupper() for m in value)
            ):
                return set(value)
        function = getattr(function, "__wrapped__", None)
    return None


def resolve_name(path: str) -> str:
    from django.urls import resolve

    match = resolve(path.split("?")[0])
    return match.view_name if match.url_name else f"{match.namespace}:<{match.route}>"


# -- personas and the database ---------------------------------------------------------


class Persona:
    def __init__(self, base: str, name: str) -> None:
        self.base, self.name = base, name
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))

    def csrf(self) -> str:
        return next((c.value for c in self.session.cookie_jar if c.key == "csrftoken"), "")

    async def get(self, path: str, **headers: str) -> tuple[int, str, str]:
        async with self.session.get(self.base + path, allow_redirects=False, headers=headers) as r:
            return r.status, await r.text(errors="replace"), r.headers.get("Location", "")

    async def post(
        self, path: str, data: dict, *, csrf: str = "own", htmx: bool = False, origin: str = ""
    ) -> tuple[int, str, str]:
        data = dict(data)
        headers = {"HX-Request": "true"} if htmx else {}
        if csrf == "own":
            data["csrfmiddlewaretoken"] = self.csrf()
        elif csrf != "none":  # another session's token
            data["csrfmiddlewaretoken"] = csrf
        if origin:
            headers["Origin"] = origin
        async with self.session.post(
            self.base + path, data=data, headers=headers, allow_redirects=False
        ) as r:
            return r.status, await r.text(errors="replace"), r.headers.get("Location", "")

    async def api(
        self,
        path: str,
        data: dict | None = None,
        *,
        bearer: str = "",
        raw: bytes | None = None,
        origin: str = "",
        auth: str = "",
    ) -> tuple[int, str, str]:
        """A bot API call: a JSON body (or ``raw`` bytes) and the bearer token, if any.

        The session's cookies go along too, as a browser's would: the API must ignore them."""
        headers = {"Content-Type": "application/json"}
        if bearer:
            headers["Authorization"] = f"Bearer {bearer}"
        if auth:
            headers["Authorization"] = auth
        if origin:
            headers["Origin"] = origin
        payload = raw if raw is not None else json.dumps(data or {}).encode()
        async with self.session.post(
            self.base + path, data=payload, headers=headers, allow_redirects=False
        ) as r:
            return r.status, await r.text(errors="replace"), r.headers.get("Location", "")

    async def close(self) -> None:
        await self.session.close()


class Database:
    """One connection that reads every watched table (or a case's rows) for comparison."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        url = env.get("DATABASE_URL", "")
        if url.startswith("postgres"):
            import psycopg

            self.connection = psycopg.connect(url, autocommit=True)
            self.mark = "%s"
            names = "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        else:
            import sqlite3

            self.connection = sqlite3.connect(env["SQLITE_PATH"], timeout=30, isolation_level=None)
            self.mark = "?"
            names = "SELECT name FROM sqlite_master WHERE type = 'table'"
        self.tables = sorted(
            t for (t,) in self.rows(names) if not t.startswith(UNWATCHED) and t != "sqlite_sequence"
        )

    def rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        cursor = self.connection.execute(sql.replace("%s", self.mark), params)
        return [tuple(map(str, row)) for row in cursor.fetchall()] if cursor.description else []

    def snapshot(self, scope: str | None = None) -> dict[str, list]:
        if scope:
            return {"(case rows)": self.rows(scope)}
        if self.mark == "?":
            return {t: sorted(self.rows(self.select(t))) for t in self.tables}
        # PostgreSQL: every table's row versions (ctid, xmin: any write makes new ones) in
        # one round trip; the content digest is read again only for a table whose rows
        # were written since.  (Reading every table's rows as text each time, the
        # puzzles' JSON most, made a case slow enough for the personas' idle connections
        # to meet uvicorn's keep-alive timeout.)
        if not hasattr(self, "_versions"):
            self._versions = " UNION ALL ".join(
                f"SELECT '{t}', md5(coalesce(string_agg(ctid::text || ':' || xmin::text, '|' "
                f"ORDER BY ctid), '')) FROM \"{t}\""
                for t in self.tables
            )
            self._cache: dict[str, tuple[str, list]] = {}
        snapshot = {}
        for table, version in self.rows(self._versions):
            cached = self._cache.get(table)
            if cached is None or cached[0] != version:
                cached = (version, self.rows(self.select(table)))
                self._cache[table] = cached
            snapshot[table] = cached[1]
        return snapshot

    def select(self, table: str) -> str:
        skipped = UNWATCHED_COLUMNS.get(table)
        columns = "*"
        if skipped:
            cursor = self.connection.execute(f'SELECT * FROM "{table}" WHERE 1 = 0')
            columns = ", ".join(f'"{d[0]}"' for d in cursor.description if d[0] not in skipped)
        if self.mark == "?":
            return f'SELECT {columns} FROM "{table}"'
        # PostgreSQL: one digest of the table's rows as text, made by the server.
        row = "t" if columns == "*" else f"ROW({columns})"
        return (
            f"SELECT md5(coalesce(string_agg(r, '|' ORDER BY r), '')), count(*) "
            f'FROM (SELECT {row}::text AS r FROM "{table}" t) x'
        )

    def close(self) -> None:
        self.connection.close()


def changed(before: dict, after: dict) -> list[str]:
    return [t for t in before if before[t] != after.get(t)]


# -- cases ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Now:
    """The game's version when the case is posted (plus ``offset``: -1 is a stale one)."""

    offset: int = 0


STALE = Now(-1)


@dataclass
class Case:
    label: str  # forged, stale, duplicate, out-of-turn, stranger, not-staff, bad input...
    who: Persona
    path: str
    data: dict = field(default_factory=dict)
    expect: str = "4xx"  # see refused()
    csrf: str = "own"  # own | none | another session's token
    origin: str = ""
    htmx: bool = True
    scope: str | None = None  # SQL whose rows must not change (default: every watched table)
    first: bool = False  # a duplicate: the same post must succeed once before
    settle: bool = True  # after the first post, wait for the computer's reply
    api: str | None = None  # a bot API call with this bearer token ("": none); else a form
    raw: bytes | None = None  # an API call's body as it is sent (else ``data`` as JSON)
    auth: str = ""  # an API call's whole Authorization header (a wrong scheme, say)
    state: bool = False  # the API's refusal must carry the game's current state


@dataclass
class Outcome:
    name: str
    case: Case
    status: int
    ok: bool
    why: str = ""


def plain_message(body: str) -> bool:
    text = re.sub(r"<[^>]+>", " ", body)
    return bool(text.strip()) and "Traceback" not in body and "Server Error" not in body


def refused(case: Case, status: int, body: str, location: str) -> str:
    """'' when the answer is a refusal of the expected kind, else what is wrong."""
    if status >= 500:
        return f"answered {status}"
    expect = case.expect
    if case.api is not None:  # the API: the status docs/API.md gives, a JSON sentence
        if str(status) != expect:
            return f"answered {status}, not {expect}"
        try:
            answer = json.loads(body)
        except ValueError:
            return f"{status} that is not JSON"
        if not isinstance(answer, dict) or not str(answer.get("error", "")).strip():
            return f"{status} without an error sentence"
        if case.state and "state" not in answer:
            return f"{status} without the game's state"
        return ""
    if expect == "403":
        return "" if status == 403 else f"answered {status}, not 403"
    if expect == "404":
        return "" if status == 404 else f"answered {status}, not 404"
    if expect == "login":
        return "" if status == 302 and "login/" in location else f"answered {status} {location}"
    if expect == "same":  # idempotent or ignored: any answer below 500, nothing changes
        return ""
    if expect == "game" and status == 200 and "game-error" in body:
        return ""  # the game panel again with its error line (the game page swaps 2xx only)
    markers = ("errorlist", 'class="form-error"', 'class="errornote"')
    if expect == "form" and status in (200, 400) and any(m in body for m in markers):
        return ""  # the form again, with its errors
    if expect == "message" and status == 302:
        return ""  # a plain form's refusal: back to the page, the message shown there
    if 400 <= status < 500:
        return "" if plain_message(body) else f"{status} without a message"
    return f"answered {status}: not refused"


class Run:
    def __init__(self, base: str, db: Database) -> None:
        self.base, self.db = base, db
        self.outcomes: list[Outcome] = []
        self.statuses: Counter = Counter()
        self.personas: list[Persona] = []

    def persona(self, name: str) -> Persona:
        p = Persona(self.base, name)
        self.personas.append(p)
        return p

    async def quiet(self, limit: float = 15) -> None:
        """Wait until no computer is to move in any active game (its reply would change rows)."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            if not computer_pending(self.db):
                return
            await asyncio.sleep(0.1)

    def data(self, case: Case) -> dict:
        data = dict(case.data)
        for key, value in data.items():
            if isinstance(value, Now):
                from django.urls import resolve

                public_id = resolve(case.path.split("?")[0]).kwargs["public_id"]
                rows = self.db.rows(
                    "SELECT version FROM games_game WHERE public_id = %s", (public_id,)
                )
                data[key] = int(rows[0][0]) + value.offset
        return data

    async def send(self, case: Case, data: dict, *, first: bool = False) -> tuple[int, str, str]:
        if case.api is not None:
            if first:  # the genuine call a duplicate repeats
                return await case.who.api(case.path, data, bearer=case.api)
            return await case.who.api(
                case.path, data, bearer=case.api, raw=case.raw, origin=case.origin, auth=case.auth
            )
        if first:
            return await case.who.post(case.path, data, htmx=case.htmx)
        return await case.who.post(
            case.path, data, csrf=case.csrf, htmx=case.htmx, origin=case.origin
        )

    async def check(self, case: Case) -> None:
        name = resolve_name(case.path)
        data = self.data(case)
        if case.first:
            status, body, _ = await self.send(case, data, first=True)
            self.statuses[status] += 1
            if status >= 400 or "game-error" in body:
                self.outcomes.append(
                    Outcome(name, case, status, False, f"the first post failed ({status})")
                )
                return
            if case.settle:
                await self.quiet()
        if case.scope is None:
            await self.quiet()
        before = self.db.snapshot(case.scope)
        status, body, location = await self.send(case, data)
        self.statuses[status] += 1
        if case.path.startswith(("/play/", "/analysis/", "/learn/")):
            await asyncio.sleep(0.05)  # the engine work a post might have set off
        after = self.db.snapshot(case.scope)
        why = refused(case, status, body, location)
        if not why and case.expect == "message" and status == 302:
            _, page, _ = await case.who.get(location.split("#")[0])  # where it is shown
            if 'class="message' not in page and 'class="game-error"' not in page:
                why = "redirected without a message"
        moved = changed(before, after)
        if moved:
            why = (why + "; " if why else "") + "stored state changed: " + ", ".join(moved)
        self.outcomes.append(Outcome(name, case, status, not why, why))


def computer_pending(db: Database) -> bool:
    """Is the engine at work: an analysis under way, or the computer to move in an
    active game (found by replaying its moves: turns do not alternate in this game)?"""
    from dotsboxes.rules import Board

    games = db.rows(
        "SELECT id, width, height, computer_side FROM games_game "
        "WHERE status = 'active' AND mode = 'computer'"
    )
    if db.rows("SELECT id FROM analysis_gameanalysis WHERE status IN ('queued', 'running')"):
        return True  # an analysis under way writes its progress
    for game_id, width, height, side in games:
        board = Board(int(width), int(height))
        for (edge,) in db.rows(
            "SELECT edge FROM games_move WHERE game_id = %s ORDER BY ply", (game_id,)
        ):
            board.play(board.parse_edge(edge))
        if not board.is_over() and board.turn.name.lower() == side:
            return True
    return False


# -- fixtures ------------------------------------------------------------------------


async def sign_up(p: Persona, username: str) -> None:
    await p.get("/accounts/signup/")
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    status, _, _ = await p.post("/accounts/signup/", data)
    assert status == 302, ("signup", status)


async def new_room(host: Persona, guest: Persona | None, *, name: str = "Alice") -> str:
    data = {"width": 3, "height": 3, "side": "blue", "timer": 0, "visibility": "public"}
    data["name"] = name
    status, _, where = await host.post("/rooms/new", data)
    assert status == 302, ("room", status)
    room = where.rstrip("/").rsplit("/", 1)[-1]
    if guest is not None:
        status, _, _ = await guest.post(f"/rooms/{room}/join", {"name": "Bob"})
        assert status == 302, ("join", status)
    return room


async def room_state(p: Persona, room: str) -> tuple[int, str]:
    _, html, _ = await p.get(f"/rooms/{room}/state")
    version, turn = ROOM_SYNC.search(html).groups()
    return int(version), turn


async def new_game(p: Persona, *, size: str = "3x3", level: str = "beginner", **extra) -> str:
    data = {"mode": "computer", "size": size, "side": "blue", "level": level, **extra}
    status, _, where = await p.post("/play/", data)
    assert status == 302, ("game", status)
    return where.rstrip("/").rsplit("/", 1)[-1]


async def game_page(run: Run, p: Persona, game: str) -> tuple[int, list[str]]:
    await run.quiet()
    _, page, _ = await p.get(f"/play/{game}/")
    return int(GAME_VERSION.search(page)[1]), SLOT.findall(page)


async def finish(run: Run, p: Persona, game: str) -> None:
    while True:
        version, slots = await game_page(run, p, game)
        if not slots:
            return
        await p.post(f"/play/{game}/move", {"edge": slots[0], "version": version}, htmx=True)


def forged(who: Persona, other: Persona, path: str, data: dict, **kw) -> list[Case]:
    """The three forgeries of a post that would otherwise be accepted."""
    return [
        Case("forged: no CSRF token", who, path, data, "403", csrf="none", **kw),
        Case("forged: another session's token", who, path, data, "403", csrf=other.csrf(), **kw),
        Case(
            "forged: foreign Origin",
            who,
            path,
            data,
            "403",
            origin="http://evil.example",
            **kw,
        ),
    ]


async def room_cases(run: Run, alice: Persona, bob: Persona, stranger: Persona) -> list[Case]:
    cases: list[Case] = []
    room = await new_room(alice, bob)
    _v, turn = await room_state(alice, room)
    assert turn == "blue"
    move = f"/rooms/{room}/move"
    cases += forged(alice, bob, move, {"edge": "a1-b1", "version": Now()})
    cases += [
        Case("not a seated player", stranger, move, {"edge": "a1-b1", "version": Now()}),
        Case("stale version", alice, move, {"edge": "a1-b1", "version": STALE}),
        Case("out of turn", bob, move, {"edge": "a1-b1", "version": Now()}),
        Case("bad edge", alice, move, {"edge": "z9-z10", "version": Now()}),
        Case("plain form, out of turn", bob, move, {"edge": "a1-b1", "version": Now()}, htmx=False),
        Case("duplicate", alice, move, {"edge": "a1-b1", "version": Now()}, first=True),
    ]
    for kind in ("draw", "takeback", "rematch"):
        path = f"/rooms/{room}/offer/{kind}"
        cases += forged(bob, alice, path, {"version": Now()})
        cases.append(Case("not a seated player", stranger, path, {"version": Now()}))
        cases.append(Case("stale version", bob, path, {"version": STALE}))
    cases += [
        Case("unknown offer", bob, f"/rooms/{room}/offer/x", {"version": Now()}),
        Case("rematch while playing", bob, f"/rooms/{room}/offer/rematch", {"version": Now()}),
        Case("take-back before moving", bob, f"/rooms/{room}/offer/takeback", {"version": Now()}),
        Case("duplicate", bob, f"/rooms/{room}/offer/draw", {"version": Now()}, first=True),
    ]
    for kind in ("draw", "takeback", "rematch"):
        path = f"/rooms/{room}/answer/{kind}"
        data = {"version": Now(), "answer": "decline"}
        cases += forged(alice, bob, path, data)
        cases.append(Case("not a seated player", stranger, path, data))
        cases.append(Case("stale version", alice, path, {**data, "version": STALE}))
    cases += [
        Case("answering one's own offer", bob, f"/rooms/{room}/answer/draw", {"version": Now()}),
        Case("no such offer pending", alice, f"/rooms/{room}/answer/takeback", {"version": Now()}),
        Case("unknown offer", alice, f"/rooms/{room}/answer/x", {"version": Now()}),
        Case(
            "duplicate",
            alice,
            f"/rooms/{room}/answer/draw",
            {"version": Now(), "answer": "decline"},
            first=True,
        ),
    ]
    swap = f"/rooms/{room}/swap"
    cases += forged(alice, bob, swap, {"swap": "off"})
    cases += [
        Case("not the host", bob, swap, {"swap": "off"}),
        Case("not a seated player", stranger, swap, {"swap": "off"}),
        Case("duplicate (no change)", alice, swap, {"swap": "off"}, "same", first=True),
    ]
    chat = f"/rooms/{room}/chat"
    cases += forged(alice, bob, chat, {"text": "hello"})
    cases += [
        Case("not a seated player", stranger, chat, {"text": "hello"}),
        Case("control character", alice, chat, {"text": "hi\x07"}),
        Case("NUL byte", alice, chat, {"text": "hi\x00"}),
        Case("empty line", alice, chat, {"text": "  "}),
        Case("far too long", alice, chat, {"text": "x" * 5000}),
    ]
    abort = f"/rooms/{room}/abort"
    cases += forged(alice, bob, abort, {"version": Now()})
    cases += [
        Case("not a seated player", stranger, abort, {"version": Now()}),
        Case("stale version", alice, abort, {"version": STALE}),
    ]
    # Abort once both moved, resign, join: each in a room of its own.
    played = await new_room(alice, bob)
    pv, _ = await room_state(alice, played)
    await alice.post(f"/rooms/{played}/move", {"edge": "a1-b1", "version": pv}, htmx=True)
    await bob.post(f"/rooms/{played}/move", {"edge": "a4-b4", "version": pv + 1}, htmx=True)
    cases.append(Case("both have moved", alice, f"/rooms/{played}/abort", {"version": Now()}))
    resign = f"/rooms/{played}/resign"
    cases += forged(alice, bob, resign, {"version": Now()})
    cases += [
        Case("not a seated player", stranger, resign, {"version": Now()}),
        Case("stale version", alice, resign, {"version": STALE}),
        Case("duplicate", alice, resign, {"version": Now()}, first=True),
        Case("after the end: abort", bob, f"/rooms/{played}/abort", {"version": Now()}),
        Case("after the end: move", bob, f"/rooms/{played}/move", {"edge": "a2-b2"}),
    ]
    fresh = await new_room(alice, None)
    _fv, _ = await room_state(alice, fresh)
    join = f"/rooms/{fresh}/join"
    cases += forged(bob, alice, join, {"name": "Bob"})
    cases += [
        Case("the room is full", stranger, f"/rooms/{room}/join", {"name": "Stan"}),
        Case("control character in the name", bob, join, {"name": "Bo\x1bb"}),
        Case("no name", bob, join, {"name": ""}),
        Case("duplicate (no change)", bob, join, {"name": "Bob"}, "same", first=True),
        Case("the host joins again (no change)", alice, join, {"name": "Alice"}, "same"),
    ]
    aborted = await new_room(alice, bob)
    _av, _ = await room_state(alice, aborted)
    cases.append(
        Case("duplicate", alice, f"/rooms/{aborted}/abort", {"version": Now()}, first=True)
    )
    create = "/rooms/new"
    good = {"width": 3, "height": 3, "side": "blue", "timer": 0, "visibility": "public"}
    cases += forged(stranger, alice, create, {**good, "name": "Stan"})
    cases += [
        Case("bad size", stranger, create, {**good, "width": 99, "name": "Stan"}),
        Case("no name", stranger, create, good),
        Case("control character", stranger, create, {**good, "name": "S\x00n"}),
    ]
    return cases


async def game_cases(run: Run, alice: Persona, stranger: Persona) -> list[Case]:
    cases: list[Case] = []
    game = await new_game(alice)
    _v, slots = await game_page(run, alice, game)
    edge = slots[0]
    move, hint, undo, resign = (f"/play/{game}/{a}" for a in ("move", "hint", "undo", "resign"))
    for path, data in ((move, {"edge": edge, "version": Now()}), (hint, {"version": Now()})):
        cases += forged(alice, stranger, path, data)
        cases += [
            Case("not the game's player", stranger, path, data, "game"),
            Case("plain form, not the player", stranger, path, data, "message", htmx=False),
            Case("stale version", alice, path, {**data, "version": STALE}, "game"),
        ]
    cases += [
        Case("bad edge", alice, move, {"edge": "a1-a1", "version": Now()}, "game"),
        Case("NUL in the edge", alice, move, {"edge": "a1\x00", "version": Now()}),
        Case("duplicate", alice, move, {"edge": edge, "version": Now()}, "game", first=True),
    ]
    cases.append(Case("duplicate hint", alice, hint, {"version": Now()}, "game", first=True))
    for path in (undo, resign):
        cases += forged(alice, stranger, path, {"version": Now()})
        cases += [
            Case("not the game's player", stranger, path, {"version": Now()}, "game"),
            Case("stale version", alice, path, {"version": STALE}, "game"),
        ]
    cases.append(Case("duplicate", alice, undo, {"version": Now()}, "game", first=True))
    # Out of turn: while the master thinks (9 x 9: seconds), only its rows may change.
    slow = await new_game(alice, size="custom", width=9, height=9, level="master")
    _sv, sslots = await game_page(run, alice, slow)
    human = (
        "SELECT ply, edge FROM games_move m JOIN games_game g ON g.id = m.game_id "
        f"WHERE g.public_id = '{slow}' AND NOT m.by_computer"
    )
    cases += [
        Case(
            "duplicate while the computer thinks",
            alice,
            f"/play/{slow}/move",
            {"edge": sslots[0], "version": Now()},
            "game",
            first=True,
            settle=False,
            scope=human,
        ),
        Case(
            "out of turn while the computer thinks",
            alice,
            f"/play/{slow}/move",
            {"edge": sslots[1], "version": Now()},
            "game",
            scope=human,
        ),
        Case(
            "out of turn: a hint while the computer thinks",
            alice,
            f"/play/{slow}/hint",
            {"version": Now()},
            "game",
            scope=f"SELECT hints_used FROM games_game WHERE public_id = '{slow}'",
        ),
    ]
    done = await new_game(alice, size="2x2")
    _dv, _ = await game_page(run, alice, done)
    cases.append(
        Case("duplicate", alice, f"/play/{done}/resign", {"version": Now()}, "game", first=True)
    )
    cases.append(
        Case(
            "after the end: move",
            alice,
            f"/play/{done}/move",
            {"edge": "a1-b1", "version": Now()},
            "game",
        )
    )
    rematch = f"/play/{done}/rematch"
    cases += forged(alice, stranger, rematch, {"swap": "1"}, htmx=False)
    cases += [
        Case("not the game's player", stranger, rematch, {"swap": "1"}, "message", htmx=False),
        Case(
            "duplicate (goes to the same rematch)",
            alice,
            rematch,
            {"swap": "1"},
            "same",
            htmx=False,
            first=True,
        ),
    ]
    good = {"mode": "computer", "size": "3x3", "side": "blue", "level": "beginner"}
    cases += forged(stranger, alice, "/play/", good, htmx=False)
    cases += [
        Case("bad size", stranger, "/play/", {**good, "size": "99x99"}, "form", htmx=False),
        Case("bad level", stranger, "/play/", {**good, "level": "god"}, "form", htmx=False),
        Case(
            "control character in a name",
            stranger,
            "/play/",
            {"mode": "local", "size": "3x3", "blue_name": "A\x01"},
            "form",
            htmx=False,
        ),
    ]
    record = "3x3 boxes\n1. a1-b1  2. b1-c1\n"
    imp = "/play/import/"
    cases += forged(stranger, alice, imp, {"record": record, "mode": "replay"}, htmx=False)
    cases += [
        Case("bad record", stranger, imp, {"record": "1. z9-z9", "mode": "replay"}, "form"),
        Case("control character", stranger, imp, {"record": "a\x02", "mode": "replay"}, "form"),
        Case("bad mode", stranger, imp, {"record": record, "mode": "x"}, "form", htmx=False),
    ]
    # The analysis of a game: only finished games, only once.
    finished = await new_game(alice, size="2x2")
    await finish(run, alice, finished)
    analyse = f"/analysis/game/{finished}/request"
    cases += forged(alice, stranger, analyse, {}, htmx=False)
    cases += [
        Case(
            "a game still being played",
            alice,
            f"/analysis/game/{game}/request",
            {},
            "message",
            htmx=False,
        ),
        Case("no such game", alice, "/analysis/game/nosuch/request", {}, "404", htmx=False),
        Case(
            "duplicate (the analysis under way is reused)",
            alice,
            analyse,
            {},
            "same",
            htmx=False,
            first=True,
            scope=f"SELECT count(*) FROM analysis_gameanalysis a JOIN games_game g "
            f"ON g.id = a.game_id WHERE g.public_id = '{finished}'",
        ),
    ]
    retry = f"/learn/from-game/{finished}/0/"
    cases += forged(alice, stranger, retry, {"edge": "a1-b1"})
    cases += [
        Case("no such game", alice, "/learn/from-game/nosuch/0/", {"edge": "a1-b1"}, "404"),
        Case(
            "no analysis yet, or no such edge",
            alice,
            f"/learn/from-game/{game}/99/",
            {"edge": "a1-b1"},
            "same",
        ),
    ]
    return cases


def settings_cases(alice: Persona, carol: Persona, anon: Persona) -> list[Case]:
    """The account settings: password, address, its confirmation, password resets."""
    cases: list[Case] = []
    password = "/accounts/settings/password"
    change = {"old_password": PASSWORD, "new_password1": "x-" + PASSWORD}
    change["new_password2"] = change["new_password1"]
    cases += forged(carol, alice, password, change, htmx=False)
    cases += [
        Case("signed out", anon, password, change, "login", htmx=False),
        Case("wrong password", carol, password, {**change, "old_password": "no"}, "form"),
        Case("new ones differ", carol, password, {**change, "new_password2": "y"}, "form"),
    ]
    email = "/accounts/settings/email"
    address = {"address": "carol@example.com", "password": PASSWORD}
    cases += forged(carol, alice, email, address, htmx=False)
    cases += [
        Case("signed out", anon, email, address, "login", htmx=False),
        Case("bad address", carol, email, {**address, "address": "x@"}, "form", htmx=False),
        Case("wrong password", carol, email, {**address, "password": "no"}, "form", htmx=False),
    ]
    resend = "/accounts/settings/email/resend"
    cases += forged(carol, alice, resend, {}, htmx=False)
    cases += [
        Case("signed out", anon, resend, {}, "login", htmx=False),
        Case("no address to confirm", carol, resend, {}, "same", htmx=False),
    ]
    confirm = "/accounts/email/confirm/MTpjQGV4YW1wbGUuY29tOms:1abc:forged/"
    cases += forged(anon, alice, confirm, {}, htmx=False)
    cases += [Case("forged link", anon, confirm, {}, htmx=False)]
    reset = "/accounts/password/reset/"
    cases += forged(anon, alice, reset, {"email": "nobody@example.com"}, htmx=False)
    cases += [Case("bad address", anon, reset, {"email": "x@"}, "form", htmx=False)]
    set_new = "/accounts/password/reset/MQ/forged-token/"
    new = {"new_password1": "x-" + PASSWORD, "new_password2": "x-" + PASSWORD}
    cases += forged(anon, alice, set_new, new, htmx=False)
    cases += [Case("forged reset link", anon, set_new, new, "form", htmx=False)]
    data = "/accounts/settings/data"
    cases += forged(carol, alice, data, {}, htmx=False)
    cases += [Case("signed out", anon, data, {}, "login", htmx=False)]
    close = "/accounts/settings/close"
    cases += forged(carol, alice, close, {"password": PASSWORD}, htmx=False)
    cases += [
        Case("signed out", anon, close, {"password": PASSWORD}, "login", htmx=False),
        Case("wrong password", carol, close, {"password": "no"}, "form", htmx=False),
        Case("no password", carol, close, {}, "form", htmx=False),
    ]
    return cases


async def account_cases(
    run: Run, alice: Persona, carol: Persona, sam: Persona, anon: Persona, game_id: str
) -> list[Case]:
    cases: list[Case] = []
    login = "/accounts/login/"
    creds = {"username": "carol", "password": PASSWORD}
    cases += forged(anon, alice, login, creds, htmx=False)
    cases += [
        Case("wrong password", anon, login, {**creds, "password": "nope"}, "form", htmx=False),
        Case("NUL in the name", anon, login, {**creds, "username": "car\x00ol"}, htmx=False),
    ]
    cases += forged(carol, alice, "/accounts/logout/", {}, htmx=False)
    signup = "/accounts/signup/"
    new = {"username": "dora", "password1": PASSWORD, "password2": PASSWORD}
    cases += forged(anon, alice, signup, new, htmx=False)
    cases += [
        Case("name taken", anon, signup, {**new, "username": "carol"}, "form", htmx=False),
        Case("passwords differ", anon, signup, {**new, "password2": "x"}, "form", htmx=False),
        Case("control character", anon, signup, {**new, "username": "d\x01"}, "form", htmx=False),
    ]
    language = "/language/"
    cases += forged(carol, alice, language, {"language": "zh-hans", "next": "/"}, htmx=False)
    profile = "SELECT user_id, language FROM accounts_profile ORDER BY user_id"
    cases += [
        Case(
            "no such language", carol, language, {"language": "xx", "next": "/"}, "same", htmx=False
        ),
        Case(
            "duplicate (no change)",
            carol,
            language,
            {"language": "en", "next": "/"},
            "same",
            htmx=False,
            first=True,
            scope=profile,
        ),
    ]
    # Notices: Carol's and Sam's, raised straight in the database.
    for user in ("carol", "sam"):
        query(
            run.db.env,
            "INSERT INTO notifications_notification (user_id, game_id, kind, version, "
            "created_at) SELECT u.id, g.id, 'turn', 1, g.created_at FROM auth_user u, "
            "games_game g WHERE u.username = %s AND g.public_id = %s",
            (user, game_id),
        )
    carols = (
        "SELECT n.id, n.read_at FROM notifications_notification n JOIN auth_user u "
        "ON u.id = n.user_id WHERE u.username = 'carol'"
    )
    read = "/notifications/read"
    cases += forged(carol, alice, read, {}, htmx=False)
    cases += [
        Case("signed out", anon, read, {}, "login", htmx=False),
        Case("another player's notices", sam, read, {}, "same", htmx=False, scope=carols),
        Case("duplicate (no change)", carol, read, {}, "same", htmx=False, first=True),
    ]
    prefs = "/notifications/"
    cases += forged(carol, alice, prefs, {"email": "on"}, htmx=False)
    cases += [Case("signed out", anon, prefs, {"email": "on"}, "login", htmx=False)]
    cases += settings_cases(alice, carol, anon)
    # Vacation days: an unticked box switches their automatic use off.
    vacation = "/notifications/vacation"
    cases += forged(carol, alice, vacation, {}, htmx=False)
    cases += [
        Case("signed out", anon, vacation, {}, "login", htmx=False),
        Case("duplicate (no change)", carol, vacation, {}, "same", htmx=False, first=True),
    ]
    # Reports: anyone reports; the staff resolve and reopen.
    new_report = f"/reports/new/?game={game_id}"
    report = {"category": "rules", "text": "The box was not given."}
    cases += forged(alice, carol, new_report, report, htmx=False)
    cases += [
        Case("no such game", alice, "/reports/new/?game=nosuch", report, "404", htmx=False),
        Case("bad category", alice, new_report, {**report, "category": "x"}, "form", htmx=False),
        Case(
            "control character",
            alice,
            new_report,
            {**report, "text": "bad \x1b box"},
            "form",
            htmx=False,
        ),
    ]
    status, _, _ = await alice.post(new_report, report)
    assert status == 302, ("report", status)
    pk = run.db.rows("SELECT max(id) FROM reports_report")[0][0]
    for action, data in (("resolve", {"note": "Checked: fine."}), ("reopen", {})):
        path = f"/reports/{pk}/{action}/"
        cases += forged(sam, carol, path, data, htmx=False)
        cases += [
            Case("not staff", carol, path, data, "404", htmx=False),
            Case("signed out", anon, path, data, "login", htmx=False),
            Case("no such report", sam, f"/reports/99999/{action}/", data, "404", htmx=False),
        ]
        if action == "resolve":
            cases += [
                Case("no note", sam, path, {"note": ""}, "message", htmx=False),
                Case("control character", sam, path, {"note": "ok\x00"}, "message", htmx=False),
                Case("duplicate", sam, path, data, "message", htmx=False, first=True),
            ]
        else:
            cases.append(Case("duplicate", sam, path, data, "message", htmx=False, first=True))
    # The guide's exercises: answers are checked, bad ones explained, not counted.
    _, page, _ = await alice.get("/learn/practice/")
    slug = re.search(r'href="/learn/practice/([\w-]+)/"', page)[1]
    exercise = f"/learn/practice/{slug}/"
    cases += forged(carol, alice, exercise, {"edge": "a1-b1"})
    cases += [
        Case("bad answer", carol, exercise, {"edge": "z9-z9"}, "same"),
        Case("NUL in the answer", carol, exercise, {"edge": "a1\x00"}),
        Case("no such exercise", carol, "/learn/practice/nosuch/", {"edge": "a1-b1"}, "404"),
    ]
    return cases


def admin_cases(endpoints: list[dict], sam: Persona, carol: Persona) -> list[Case]:
    """Django's admin: no post without a token, nothing for a player who is not staff."""
    cases = []
    for e in endpoints:
        if not (e["post"] and e["name"].startswith("admin:")):
            continue
        route = "/" + e["route"]
        route = re.sub(r"\^\(\?P<app_label>(\w+)\|[^)]*\)/\$", r"\1/", route)  # the first app
        route = route.replace("(?P<url>.*)$", "nosuch/")
        route = re.sub(r"<(?:\w+:)?\w+>", "1", route)
        data = {"post": "yes", "action": "delete_selected", "_selected_action": "1"}
        cases.append(
            Case("forged: no CSRF token (staff)", sam, route, data, "403", csrf="none", htmx=False)
        )
        if e["name"] in ("admin:logout", "admin:login"):
            continue  # signing out is anyone's; the login page is checked below
        cases.append(Case("not staff", carol, route, data, "login", htmx=False))
    cases.append(
        Case(
            "not staff: admin sign-in",
            carol,
            "/admin/login/",
            {"username": "carol", "password": PASSWORD},
            "form",
            htmx=False,
        )
    )
    return cases


async def get_only(run: Run, endpoints: list[dict], carol: Persona, ids: dict) -> list[str]:
    """GET-only patterns refuse a post with a good token (405): what the URLconf read said."""
    wrong = []
    values = {
        "public_id": ids["game"],
        "slug": ids["slug"],
        "pk": ids["report"],
        "username": "carol",
    }
    for e in endpoints:
        if e["post"] or e["name"].startswith("admin:"):
            continue
        route = "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values.get(m[1], "1")), e["route"])
        status, _, _ = await carol.post(route, {})
        run.statuses[status] += 1
        if status != 405:
            wrong.append(f"{e['name']} ({route}) answered {status}")
    return wrong


async def scenario(base: str, env: dict[str, str], endpoints: list[dict]) -> dict:
    db = Database(env)
    run = Run(base, db)
    alice, bob, stranger = (run.persona(n) for n in ("alice", "bob", "stranger"))
    carol, sam, anon = (run.persona(n) for n in ("carol", "sam", "anon"))
    started = time.monotonic()
    try:
        for p in run.personas:
            await p.get("/rooms/")  # a session and its CSRF cookie
        await sign_up(carol, "carol")
        await sign_up(sam, "sam")
        query(env, "UPDATE auth_user SET is_staff = %s WHERE username = 'sam'", (True,))
        cases = await room_cases(run, alice, bob, stranger)
        cases += await game_cases(run, alice, stranger)
        game_id = await new_game(alice, size="2x2")
        await finish(run, alice, game_id)
        cases += await account_cases(run, alice, carol, sam, anon, game_id)
        from tests.chaos.bad_posts_apps import (
            api_cases,
            moderation_cases,
            puzzle_cases,
            study_cases,
            tournament_cases,
        )

        people = {"carol": carol, "sam": sam, "anon": anon}
        cases += await api_cases(run, people)
        cases += await puzzle_cases(run, people)
        cases += await tournament_cases(run, people)  # after the API's: its bots
        cases += await study_cases(run, people)
        cases += await moderation_cases(run, people)
        cases += admin_cases(endpoints, sam, carol)
        missing = [t for t in MUST_WATCH if t not in db.tables]
        assert not missing, f"tables not watched: {missing}"
        for case in cases:
            await run.check(case)
        _, page, _ = await alice.get("/learn/practice/")
        ids = {
            "game": game_id,
            "slug": re.search(r'href="/learn/practice/([\w-]+)/"', page)[1],
            "report": db.rows("SELECT max(id) FROM reports_report")[0][0],
        }
        wrong_get = await get_only(run, endpoints, carol, ids)
    finally:
        for p in run.personas:
            await p.close()
        db.close()
    posted = {e["name"] for e in endpoints if e["post"]}
    covered = {o.name for o in run.outcomes}
    kinds: dict[str, set] = {}
    for o in run.outcomes:
        kinds.setdefault(o.name, set()).add(o.case.label.split(":")[0].split(" (")[0])
    return {
        "outcomes": run.outcomes,
        "failures": [o for o in run.outcomes if not o.ok],
        "uncovered": sorted(posted - covered),
        "unforged": sorted(n for n in posted & covered if "forged" not in kinds[n]),
        "wrong_get": wrong_get,
        "endpoints": len(posted),
        "admin_endpoints": sum(1 for n in posted if n.startswith("admin:")),
        "statuses": run.statuses,
        "wall": time.monotonic() - started,
    }


def run(*, database: str = "sqlite", port: int = PORT_BASE) -> dict:
    """Start a fresh site, post every bad case, and return the figures."""
    endpoints = post_endpoints()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        with site_env(tmp, database=database, RATE_LIMITS_ENABLED="0") as env:
            with servers(env, tmp, 1, port) as (server,):
                result = harness.run_async(scenario(server.url, env, endpoints))
            result["tracebacks"] = server.tracebacks()
            if result["tracebacks"]:
                result["log_tail"] = server.first_traceback()
    result["errors_5xx"] = sum(v for k, v in result["statuses"].items() if k >= 500)
    return result


def summary(r: dict, *, database: str) -> str:
    outcomes = r["outcomes"]
    labels = Counter(o.case.label.split(":")[0].split(" (")[0] for o in outcomes)
    top = ", ".join(f"{k} {v}" for k, v in labels.most_common(6))
    return (
        f"bad posts db={database}: {len(outcomes)} posts to {r['endpoints']} POST endpoints "
        f"({r['endpoints'] - r['admin_endpoints']} of the site, {r['admin_endpoints']} admin), "
        f"{len(outcomes) - len(r['failures'])} refused with the state unchanged, "
        f"{len(r['failures'])} not; {len(r['uncovered'])} endpoints not covered, "
        f"{len(r['unforged'])} without a forged post, "
        f"{len(r['wrong_get'])} GET-only patterns not answering 405; "
        f"{r['errors_5xx']} responses >= 500, {r['tracebacks']} tracebacks, {r['wall']:.0f} s "
        f"[{top}, ...]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    args = parser.parse_args()
    r = run(database=args.database)
    print(summary(r, database=args.database), flush=True)
    for o in r["failures"]:
        print(f"  FAIL {o.name} [{o.case.label}] {o.case.path}: {o.why}")
    for name in r["uncovered"]:
        print(f"  NOT COVERED {name}")
    for name in r["unforged"]:
        print(f"  NO FORGED POST {name}")
    for line in r["wrong_get"]:
        print(f"  GET-ONLY? {line}")
    if r.get("log_tail"):
        print(r["log_tail"])


if __name__ == "__main__":
    # Run as the imported module, so that tests.chaos.bad_posts_apps's cases are made of
    # the same classes (``Now``) as the ones this run checks.
    from tests.chaos import bad_posts

    bad_posts.main()
