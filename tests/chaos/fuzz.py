"""Fuzz a real server with malformed form posts and WebSocket frames and handshakes.

    python -m tests.chaos.fuzz [--posts 10000] [--sockets 5000] [--debug both]
                               [--database sqlite|postgres]

Every POST endpoint gets bodies in charsets Django cannot decode, random bytes,
control characters and NUL, broken percent escapes, huge and repeated fields,
broken multipart bodies and odd content types, with and without a CSRF token,
as a seated player, as the other player, as a stranger, as a signed-in person and
as two bots.  The bot API's endpoints mostly get broken or hostile JSON (nested
past the parser's depth, NaN and 1e400, the wrong types, NUL and lone surrogates
in escapes, huge and repeated keys) under a good, revoked, wrong, absent or
garbled ``Authorization`` header.  Tournaments: their create form and a
tournament's join, leave, start and feature.  Sockets: handshakes
to unknown and hostile paths and origins, and text, binary and oversized frames
on the lobby's and a room's sockets.  ``/healthz`` is polled throughout.

One summary line per DEBUG setting: statuses seen, responses >= 500, tracebacks
in the server's log, /healthz answers.  Rate limits are switched off (a flood
would mostly meet 429s and reach nothing else); django-axes stays on.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import string
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import quote

import aiohttp

from tests.chaos import harness
from tests.chaos.harness import PORT_BASE, percentile, servers, site_env

CONTROL = [chr(c) for c in (*range(0, 32), 127, 0x85, 0x9B)]
CHARSETS = ["utf-16", "utf-32", "cp500", "latin-1", "no-such-codec", "", "utf-8;x", "utf-7"]
FIELDS = [
    "name",
    "text",
    "preset",
    "edge",
    "version",
    "record",
    "mode",
    "width",
    "height",
    "size",
    "side",
    "level",
    "timer",
    "visibility",
    "answer",
    "swap",
    "username",
    "password",
    "password1",
    "password2",
    "category",
    "note",
    "position",
    "blue_name",
    "kind",
    "starts_in",
    "duration",
    "rounds",
    "rated",
    "allow_bots",
    "featured",
]


def junk_text(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.3:
        return "".join(rng.choice(CONTROL + list("ab1 -")) for _ in range(rng.randint(1, 30)))
    if kind < 0.5:
        return rng.choice(
            [
                "a1-b1",
                "b1-a1",
                "z9-z10",
                "-1",
                "99999999999999999999",
                "1e9",
                "٣",
                "NaN",
                "",
                " ",
                "\u202e",
                "\ud800".encode("utf-8", "surrogatepass").decode("latin-1"),
            ]
        )
    if kind < 0.7:
        return "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 300)))
    return (
        "".join(chr(rng.randint(1, 0x10FFFF)) for _ in range(rng.randint(1, 20)) if True)
        .encode("utf-8", "replace")
        .decode("utf-8", "replace")
    )


def malformed(rng: random.Random, csrf: str) -> tuple[bytes, str]:
    """A body and its content type."""
    token = f"csrfmiddlewaretoken={csrf}&" if rng.random() < 0.8 else ""
    kind = rng.randrange(10)
    form = "application/x-www-form-urlencoded"
    if kind == 0:  # a charset Django cannot (or must not) decode
        charset = rng.choice(CHARSETS)
        text = token + "&".join(f"{rng.choice(FIELDS)}={junk_text(rng)}" for _ in range(3))
        try:
            body = text.encode(charset.split(";")[0] or "utf-8", "replace")
        except LookupError:
            body = text.encode("utf-8", "replace")
        return body, f"{form}; charset={charset}"
    if kind == 1:  # random bytes
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 400))), form
    if kind == 2:  # control characters and NUL, percent-encoded
        pairs = [(rng.choice(FIELDS), junk_text(rng)) for _ in range(rng.randint(1, 6))]
        return (token + "&".join(f"{k}={quote(v, safe='')}" for k, v in pairs)).encode(), form
    if kind == 3:  # broken percent escapes and surrogates
        bits = ["%", "%G1", "%ED%A0%80", "%FF%FE", "%C0%AF", "%00", "%%", "+%E2%82"]
        return (
            token
            + "&".join(f"{rng.choice(FIELDS)}={''.join(rng.choices(bits, k=5))}" for _ in range(3))
        ).encode(), form
    if kind == 4:  # a huge field (up to past Django's 2.5 MB body limit)
        size = rng.choice([10_000, 300_000, 3_000_000])
        return (token + f"{rng.choice(FIELDS)}=" + "x" * size).encode(), form
    if kind == 5:  # repeated fields (past Django's 1000-field limit too)
        n = rng.choice([50, 999, 1500])
        return (token + "&".join(f"{rng.choice(FIELDS)}=a1-b1" for _ in range(n))).encode(), form
    if kind == 6:  # broken multipart
        boundary = rng.choice(["x", "", "\xff", "-" * 80, "a b"])
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{rng.choice(FIELDS)}"'
            f"\r\n\r\n{junk_text(rng)}\r\n",
            f"--{boundary}\r\nContent-Disposition: form-da",
            f"--{boundary}\r\nContent-Type: text/plain; charset=utf-16\r\n\r\n\xff\xfe",
        ]
        body = "".join(rng.choices(parts, k=3)) + (
            f"--{boundary}--\r\n" if rng.random() < 0.5 else ""
        )
        charset = rng.choice(["", "; charset=utf-16", "; charset=bogus"])
        return body.encode(
            "utf-8", "surrogateescape"
        ), f"multipart/form-data; boundary={boundary}{charset}".encode("latin-1", "replace").decode(
            "latin-1"
        )
    if kind == 7:  # odd content types
        ctype = rng.choice(
            [
                "application/json",
                "text/plain; charset=utf-16",
                "application/xml",
                "multipart/mixed",
                "",
                "application/x-www-form-urlencoded; a=b; c",
            ]
        )
        return b'{"edge": "a1-b1", "version": 1}', ctype
    if kind == 8:  # plausible fields with hostile values
        pairs = [(f, junk_text(rng)) for f in rng.sample(FIELDS, 5)]
        return (token + "&".join(f"{k}={quote(v, safe='')}" for k, v in pairs)).encode(), form
    # kind 9: NUL in a field name, empty names, no '='
    return (
        token + rng.choice(["%00=1", "=", "&&&", "a", "edge&edge=&=a1-b1", "x%00y=1"])
    ).encode(), form


def malformed_json(rng: random.Random) -> bytes:
    """A bot API body: broken or hostile JSON, or JSON of the wrong shapes."""
    kind = rng.randrange(8)
    if kind == 0:  # broken
        return rng.choice([b'{"version": 1,', b"{", b"}", b'{"edge": "a1-b1"', b"nul", b"\xff{"])
    if kind == 1:  # nested past the parser's depth
        depth = rng.choice([1_000, 100_000])
        return rng.choice([b"[" * depth + b"]" * depth, b'{"a":' * depth + b"1" + b"}" * depth])
    if kind == 2:  # numbers JSON has not, or past a double
        number = rng.choice(["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1" * 5000])
        key = rng.choice(["version", "width", "height", "timer_seconds"])
        return f'{{"edge": "a1-b1", "{key}": {number}}}'.encode()
    if kind == 3:  # the wrong types
        value = rng.choice(["[]", "{}", "null", "true", '"1"', "-1", "0.5", '""', "[1, 2]"])
        key = rng.choice(["version", "edge", "width", "side", "rated", "timer_seconds"])
        return f'{{"{key}": {value}, "edge": "a1-b1"}}'.encode()
    if kind == 4:  # escapes: NUL, lone surrogates, controls, bidi marks
        text = rng.choice(["\\u0000", "\\ud800", "\\udfff", "a1\\u0007b1", "\\u202e", "\\uffff"])
        key = rng.choice(["edge", "side", "version", "name"])
        return f'{{"{key}": "{text}", "version": 1}}'.encode()
    if kind == 5:  # huge and repeated
        if rng.random() < 0.5:
            return b'{"edge": "' + b"a" * rng.choice([10_000, 3_000_000]) + b'", "version": 1}'
        return b"{" + b",".join(b'"edge": "a1-b1"' for _ in range(5000)) + b"}"
    if kind == 6:  # not an object
        return rng.choice([b"[]", b"1", b'"a1-b1"', b"null", b"true", b"[" + b"1," * 999 + b"1]"])
    return json.dumps({k: junk_text(rng) for k in rng.sample(FIELDS, 3)}).encode(
        "utf-8", "surrogatepass"
    )


def authorization(rng: random.Random, tokens: list[str]) -> str | None:
    """An Authorization header: a good token mostly, else a bad, revoked or odd one."""
    kind = rng.random()
    if kind < 0.55:
        return f"Bearer {rng.choice(tokens[:-1])}"
    if kind < 0.65:
        return f"Bearer {tokens[-1]}"  # revoked
    if kind < 0.75:
        return None
    junk = "".join(rng.choice(string.printable[:94] + " \t") for _ in range(rng.randint(0, 300)))
    return rng.choice(
        [
            f"Bearer {junk}",
            f"Bearer dbx_{'x' * 43}",
            f"Bearer {'a' * 5000}",
            "Bearer ",
            "Bearer",
            f"Basic {junk}",
            f"bearer  {rng.choice(tokens)}  ",
            junk,
            "Bearer \xe9\xff",
        ]
    )


class Player:
    def __init__(self, base: str) -> None:
        self.base = base
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))

    def csrf(self) -> str:
        for cookie in self.session.cookie_jar:
            if cookie.key == "csrftoken":
                return cookie.value
        return ""

    async def get(self, path: str) -> aiohttp.ClientResponse:
        async with self.session.get(self.base + path, allow_redirects=False) as r:
            await r.read()  # kept: r.text() reads it again after the block
            return r

    async def form(self, path: str, data: dict) -> str:
        data = {**data, "csrfmiddlewaretoken": self.csrf()}
        async with self.session.post(self.base + path, data=data, allow_redirects=False) as r:
            await r.read()
            assert r.status in (200, 302), (path, r.status)
            return r.headers.get("Location", "")

    async def api(self, path: str, data: dict, token: str) -> dict:
        headers = {"Authorization": f"Bearer {token}"}
        async with self.session.post(self.base + path, json=data, headers=headers) as r:
            assert r.status in (200, 201), (path, r.status, await r.text())
            return await r.json()


async def signed_up(base: str, username: str, *, bot: bool = False) -> tuple[Player, list[str]]:
    """A player signed up as ``username``; a bot gets two tokens, the second revoked."""
    player = Player(base)
    await player.get("/accounts/signup/")
    password = "correct horse battery 13"
    await player.form(
        "/accounts/signup/",
        {"username": username, "password1": password, "password2": password},
    )
    if not bot:
        return player, []
    await player.form("/bots/become-bot", {})
    tokens = []
    for _ in range(2):
        await player.form("/bots/tokens/new", {"name": "fuzz"})
        async with player.session.get(f"{base}/accounts/{username}/") as r:
            tokens.append(re.search(r'id="new-token">([^<]+)<', await r.text())[1])
    async with player.session.get(f"{base}/accounts/{username}/") as r:
        ids = re.findall(r"/bots/tokens/(\d+)/revoke", await r.text())
    await player.form(f"/bots/tokens/{max(map(int, ids))}/revoke", {})
    return player, tokens


async def set_up(base: str) -> tuple[list[Player], list[str], dict]:
    alice, bob, stranger = Player(base), Player(base), Player(base)
    for p in (alice, bob, stranger):
        await p.get("/rooms/")
    where = await alice.form(
        "/rooms/new",
        {
            "width": 3,
            "height": 3,
            "side": "blue",
            "timer": 0,
            "visibility": "public",
            "name": "Alice",
        },
    )
    room = where.rstrip("/").rsplit("/", 1)[-1]
    await bob.form(f"/rooms/{room}/join", {"name": "Bob"})
    vs = await alice.form(
        "/play/", {"mode": "computer", "size": "3x3", "side": "blue", "level": "beginner"}
    )
    local = await alice.form("/play/", {"mode": "local", "size": "3x3"})
    computer_id, local_id = (u.rstrip("/").rsplit("/", 1)[-1] for u in (vs, local))
    paths = [
        "/rooms/new",
        "/play/",
        "/play/import/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/logout/",
        f"/reports/new/?game={computer_id}",
        "/reports/1/resolve/",
    ]
    paths += [
        f"/rooms/{room}/{a}"
        for a in (
            "join",
            "move",
            "resign",
            "abort",
            "offer/draw",
            "offer/takeback",
            "offer/rematch",
            "answer/draw",
            "answer/takeback",
            "swap",
            "chat",
        )
    ]
    for game in (computer_id, local_id):
        paths += [f"/play/{game}/{a}" for a in ("move", "hint", "undo", "resign", "rematch")]
    # The bots, their API and pages, and the puzzles.
    bot, tokens = await signed_up(base, "fuzzbot", bot=True)
    other, other_tokens = await signed_up(base, "fuzzbot2", bot=True)
    person, _ = await signed_up(base, "fuzzer")
    offer = {"width": 3, "height": 3, "side": "blue"}

    async def challenge() -> int:
        return (await bot.api("/api/challenge/fuzzbot2", offer, tokens[0]))["challenge"]["id"]

    accepted = await challenge()
    game = (await other.api(f"/api/challenge/{accepted}/accept", {}, other_tokens[0]))["game"]
    pending = await challenge()
    waiting = await person.form("/bots/challenge/fuzzbot", {**offer, "timer": 0})
    paths += [
        f"/api/game/{game['id']}/{a}"
        for a in ("move", "resign", "abort", "draw/offer", "draw/accept", "draw/decline", "draw/x")
    ]
    paths += [
        "/api/challenge/fuzzbot2",
        "/api/challenge/fuzzer",
        f"/api/challenge/{pending}/accept",
        f"/api/challenge/{pending}/decline",
        f"/api/challenge/{accepted}/accept",
        "/bots/become-bot",
        "/bots/tokens/new",
        "/bots/tokens/1/revoke",
        "/bots/tokens/2/revoke",
        "/bots/challenge/fuzzbot",
        f"{waiting.rstrip('/')}/cancel",
        "/puzzles/1/",
        "/puzzles/2/",
        "/puzzles/streak/",
    ]
    # A tournament of the signed-in person's, upcoming (an hour ahead), with them in it.
    where = await person.form(
        "/tournaments/create",
        {
            "name": "Fuzz cup",
            "kind": "arena",
            "width": 3,
            "height": 3,
            "timer": 86400,
            "starts_in": 60,
            "duration": 30,
        },
    )
    tournament = where.rstrip("/")
    await person.form(f"{tournament}/join", {})
    paths += ["/tournaments/create"]
    paths += [f"{tournament}/{a}" for a in ("join", "leave", "start", "feature")]
    for p in (alice, stranger, person):
        await p.get("/puzzles/1/")  # a puzzle in progress, so posts reach its checks
    practice = await alice.get("/learn/practice/")
    slug = re.search(r'href="/learn/practice/([\w-]+)/"', await practice.text())
    paths += [
        "/language/",
        "/notifications/",
        "/notifications/read",
        "/notifications/vacation",
        "/accounts/settings/password",
        "/accounts/settings/email",
        "/accounts/settings/email/resend",
        "/accounts/email/confirm/MTp4QHkuejpr:1abc:forged/",
        "/accounts/password/reset/",
        "/accounts/password/reset/MQ/forged-token/",
        "/accounts/settings/data",
        "/accounts/settings/close",
        "/reports/1/reopen/",
        "/reports/chat/line/1/",
        "/reports/chat/1/resolve/",
        "/reports/mute/fuzzer",
        "/reports/unmute/fuzzer",
        "/reports/fairplay/fuzzer/decide",
        "/moderation/block/fuzzbot",
        "/moderation/unblock/fuzzbot",
        f"/analysis/game/{computer_id}/request",
        f"/learn/practice/{slug[1] if slug else 'x'}/",
        f"/learn/from-game/{computer_id}/0/",
    ]
    # A study of the person's with one chapter, so posts reach the studies' checks.
    where = await person.form(
        "/studies/new",
        {"s-title": "Fuzz study", "s-description": "", "s-visibility": "public", "create": "1"},
    )
    study = "/studies/" + where.rstrip("/").split("/")[-2]
    await person.form(f"{study}/edit", {"action": "chapter", "c-title": "One", "c-size": "2x2"})
    paths += ["/studies/new"]
    paths += [f"{study}/{a}" for a in ("edit", "copy", "staff", "1/answer", "1/edit")]
    players = [alice, bob, stranger, bot, other, person]
    # The last token is the revoked one.
    return players, paths, {"room": room, "tokens": [tokens[0], other_tokens[0], tokens[1]]}


def uncovered(paths: list[str]) -> list[str]:
    """The site's POST endpoints (from the URLconf, the admin aside) no path reaches."""
    from tests.chaos.bad_posts import post_endpoints, resolve_name

    wanted = {e["name"] for e in post_endpoints() if e["post"]}
    reached = {resolve_name(p) for p in paths}
    return sorted(n for n in wanted - reached if not n.startswith("admin:"))


async def healthz(base: str, stop: asyncio.Event, seen: list) -> None:
    async with aiohttp.ClientSession() as session:
        while not stop.is_set():
            start = time.monotonic()
            try:
                async with session.get(base + "/healthz", timeout=aiohttp.ClientTimeout(5)) as r:
                    seen.append((r.status, time.monotonic() - start))
            except Exception:
                seen.append((0, time.monotonic() - start))
            await asyncio.sleep(0.5)


async def fuzz_posts(base, players, paths, n, rng, statuses, times, tokens) -> None:
    sem = asyncio.Semaphore(8)

    async def one(i: int) -> None:
        player = rng.choice(players)
        path = rng.choice(paths)
        body, ctype = malformed(rng, player.csrf())
        headers = {"Content-Type": ctype} if ctype else {}
        if path.startswith("/api/"):  # a bearer token (or not), JSON (or not)
            if rng.random() < 0.7:
                body = malformed_json(rng)
                headers["Content-Type"] = rng.choice(["application/json"] * 3 + [ctype or ""])
            auth = authorization(rng, tokens)
            if auth is not None:
                headers["Authorization"] = auth
        if rng.random() < 0.5:
            headers["HX-Request"] = "true"
        if rng.random() < 0.7:
            headers["X-CSRFToken"] = player.csrf()
        async with sem:
            start = time.monotonic()
            try:
                async with player.session.post(
                    base + path,
                    data=body,
                    headers=headers,
                    allow_redirects=False,
                    timeout=aiohttp.ClientTimeout(60),
                ) as r:
                    await r.read()
                    statuses[r.status] += 1
            except Exception as exc:
                statuses[f"error:{type(exc).__name__}"] += 1
            times.append(time.monotonic() - start)

    await asyncio.gather(*(one(i) for i in range(n)))


async def fuzz_sockets(base, players, room, n, rng, statuses) -> None:
    ws_base = base.replace("http://", "ws://")
    sem = asyncio.Semaphore(6)
    hostile = [
        "/ws/",
        "/ws/x/",
        "/ws/rooms/%00/",
        "/ws/rooms/" + "a" * 300 + "/",
        "/ws/rooms/../",
        "/ws/rooms/%ff%fe/",
        "/ws/rooms/nosuchroom/",
        "/ws/rooms/a/b/",
        "/",
        "/healthz",
        "/ws/rooms/%E2%80%AE/",
        "/ws/rooms/?x=%00",
    ]

    async def one(i: int) -> None:
        player = rng.choice(players)
        good = rng.random() < 0.6
        path = rng.choice(["/ws/rooms/", f"/ws/rooms/{room}/"]) if good else rng.choice(hostile)
        origin = rng.choice([base, base, "http://evil.example", "null", ""])
        headers = {"Origin": origin} if origin else {}
        async with sem:
            try:
                async with player.session.ws_connect(
                    ws_base + path,
                    headers=headers,
                    timeout=aiohttp.ClientWSTimeout(ws_close=5),
                    max_msg_size=0,
                ) as ws:
                    statuses["ws:open"] += 1
                    frame = rng.randrange(5)
                    if frame == 0:
                        await ws.send_str(junk_text(rng))
                    elif frame == 1:
                        await ws.send_bytes(bytes(rng.randrange(256) for _ in range(64)))
                    elif frame == 2:
                        await ws.send_str("x" * 20_000)
                    elif frame == 3:
                        await ws.ping(b"\x00" * 10)
                        await ws.send_str('{"type": "websocket.send"}')
                    else:
                        await ws.close(code=rng.choice([1000, 1001, 3000, 4999]))
                    try:
                        async with asyncio.timeout(5):
                            async for _ in ws:
                                pass
                    except TimeoutError:
                        pass
                    statuses[f"ws:closed:{ws.close_code}"] += 1
            except aiohttp.WSServerHandshakeError as exc:
                statuses[f"ws:refused:{exc.status}"] += 1
            except Exception as exc:
                statuses[f"ws:error:{type(exc).__name__}"] += 1

    await asyncio.gather(*(one(i) for i in range(n)))


async def run_against(base: str, posts: int, sockets: int, seed: int) -> dict:
    rng = random.Random(seed)
    players, paths, ids = await set_up(base)
    statuses: Counter = Counter()
    times: list[float] = []
    stop, health = asyncio.Event(), []
    monitor = asyncio.create_task(healthz(base, stop, health))
    started = time.monotonic()
    try:
        await asyncio.gather(
            fuzz_posts(base, players, paths, posts, rng, statuses, times, ids["tokens"]),
            fuzz_sockets(base, players, ids["room"], sockets, rng, statuses),
        )
    finally:
        stop.set()
        await monitor
        for p in players:
            await p.session.close()
    return {
        "statuses": statuses,
        "errors_5xx": sum(v for k, v in statuses.items() if isinstance(k, int) and k >= 500)
        + sum(
            v for k, v in statuses.items() if isinstance(k, str) and k.startswith("ws:refused:5")
        ),
        "healthz_ok": sum(1 for s, _ in health if s == 200),
        "healthz_all": len(health),
        "healthz_max": max((t for _, t in health), default=0.0),
        "median": percentile(times, 0.5),
        "p95": percentile(times, 0.95),
        "wall": time.monotonic() - started,
        "uncovered": uncovered(paths),
    }


def run(
    *,
    posts: int,
    sockets: int,
    debug: bool,
    database: str = "sqlite",
    seed: int = 13,
    port: int = PORT_BASE,
    redis_url: str = "",
) -> dict:
    """Start a fresh site with DEBUG as asked, fuzz it, and return the figures."""
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        env_args = {"RATE_LIMITS_ENABLED": "0"}
        with site_env(tmp, database=database, debug=debug, redis_url=redis_url, **env_args) as env:
            with servers(env, tmp, 1, port) as (server,):
                result = harness.run_async(run_against(server.url, posts, sockets, seed))
            result["tracebacks"] = server.tracebacks()
            if result["tracebacks"]:
                result["log_tail"] = server.first_traceback()
    return result


def summary(result: dict, *, debug: bool, database: str, posts: int, sockets: int) -> str:
    top = ", ".join(f"{k}:{v}" for k, v in result["statuses"].most_common(12))
    return (
        f"fuzz debug={int(debug)} db={database} posts={posts} sockets={sockets}: "
        f"{result['errors_5xx']} responses >= 500, {result['tracebacks']} tracebacks, "
        f"/healthz {result['healthz_ok']}/{result['healthz_all']} ok (slowest "
        f"{result['healthz_max']:.2f} s), post median {result['median'] * 1000:.0f} ms "
        f"p95 {result['p95'] * 1000:.0f} ms, {result['wall']:.0f} s wall, "
        f"POST endpoints not fuzzed: {result['uncovered'] or 'none'} [{top}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--posts", type=int, default=10_000)
    parser.add_argument("--sockets", type=int, default=5_000)
    parser.add_argument("--debug", choices=["0", "1", "both"], default="both")
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--redis", default="", help="REDIS_URL for the server (default: none)")
    args = parser.parse_args()
    for debug in [False, True] if args.debug == "both" else [args.debug == "1"]:
        result = run(
            posts=args.posts,
            sockets=args.sockets,
            debug=debug,
            database=args.database,
            redis_url=args.redis,
        )
        print(
            summary(
                result, debug=debug, database=args.database, posts=args.posts, sockets=args.sockets
            ),
            flush=True,
        )
        if result.get("log_tail"):
            print(result["log_tail"])


if __name__ == "__main__":
    main()
