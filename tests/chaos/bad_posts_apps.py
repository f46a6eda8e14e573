"""Bad posts for the bot API (``/api/``), the bot pages (``/bots/``) and the puzzles.

Part of :mod:`tests.chaos.bad_posts` (its ``Case``, personas and checks).  The API
is exempt from CSRF by design (docs/API.md): it authenticates by the bearer token
alone, so its forgeries are the calls a browser could be tricked into making, with
no token (a session's cookies and CSRF token, a foreign ``Origin``), and a wrong,
revoked or badly written token: each must be a 401.  Everything else is refused
with the status docs/API.md gives, a JSON sentence, and the state unchanged.
"""

from __future__ import annotations

import asyncio
import json
import time

from tests.chaos.bad_posts import (
    API_TOKEN,
    STALE,
    Case,
    Now,
    Persona,
    Run,
    forged,
    new_game,
    sign_up,
)
from tests.chaos.harness import query

WRONG_TOKEN = "dbx_" + "x" * 43
DEEP = b"[" * 100_000 + b"]" * 100_000  # deeper than Python's JSON parser can recurse
NUMBER = b'{"edge": "a1-b1", "version": 1e400, "width": 1e400}'  # float("inf") to Python


async def bot_with_token(p: Persona, username: str) -> str:
    """Sign ``p`` up as ``username``, make the account a bot, and return a new token."""
    await sign_up(p, username)
    status, _, _ = await p.post("/bots/become-bot", {})
    assert status == 302, ("become bot", status)
    return await new_token(p, username)


async def new_token(p: Persona, username: str) -> str:
    status, _, _ = await p.post("/bots/tokens/new", {"name": "chaos"})
    assert status == 302, ("token", status)
    _, page, _ = await p.get(f"/accounts/{username}/")  # shown once, there
    return API_TOKEN.search(page)[1]


async def api(p: Persona, path: str, data: dict, token: str) -> dict:
    status, body, _ = await p.api(path, data, bearer=token)
    assert status in (200, 201), (path, status, body)
    return json.loads(body)


def unauthenticated(who: Persona, path: str, data: dict, revoked: str) -> list[Case]:
    """The calls without a valid token: each a 401, whoever's cookies come along."""
    return [
        Case("forged: no token, a signed-in session's cookies", who, path, data, "401", api=""),
        Case(
            "forged: no token, a foreign Origin",
            who,
            path,
            data,
            "401",
            api="",
            origin="http://evil.example",
        ),
        Case("forged: wrong token", who, path, data, "401", api=WRONG_TOKEN),
        Case("forged: revoked token", who, path, data, "401", api=revoked),
        Case(
            "forged: not a Bearer token",
            who,
            path,
            data,
            "401",
            api="",
            auth=f"Token {WRONG_TOKEN}",
        ),
    ]


def bad_bodies(who: Persona, path: str, token: str) -> list[Case]:
    return [
        Case("bad input: not JSON", who, path, {}, "400", api=token, raw=b'{"version": 1,'),
        Case("bad input: not a JSON object", who, path, {}, "400", api=token, raw=b"[1, 2]"),
        Case("bad input: JSON nested too deep", who, path, {}, "400", api=token, raw=DEEP),
        Case("bad input: not UTF-8", who, path, {}, "400", api=token, raw=b'{"v": "\xff\xfe"}'),
        Case("bad input: a number past a double", who, path, {}, "400", api=token, raw=NUMBER),
        Case("bad input: NaN", who, path, {}, "400", api=token, raw=b'{"version": NaN}'),
    ]


async def api_cases(run: Run, people: dict[str, Persona]) -> list[Case]:
    alpha, beta, gamma = (run.persona(n) for n in ("alphabot", "betabot", "gammabot"))
    for p in (alpha, beta, gamma):
        await p.get("/rooms/")
    ta = await bot_with_token(alpha, "alphabot")
    tb = await bot_with_token(beta, "betabot")
    tg = await bot_with_token(gamma, "gammabot")
    revoked = await new_token(alpha, "alphabot")
    await new_token(alpha, "alphabot")  # a spare: its row is revoked twice below
    rows = run.db.rows(
        "SELECT t.id FROM api_apitoken t JOIN auth_user u ON u.id = t.user_id "
        "WHERE u.username = 'alphabot' ORDER BY t.id"
    )
    revoked_id, spare_id = rows[1][0], rows[2][0]
    status, _, _ = await alpha.post(f"/bots/tokens/{revoked_id}/revoke", {})
    assert status == 302, ("revoke", status)

    async def challenge() -> int:  # Alpha invites Beta, and will be Blue
        data = {"width": 3, "height": 3, "side": "blue"}
        return (await api(alpha, "/api/challenge/betabot", data, ta))["challenge"]["id"]

    async def game() -> tuple[str, int]:
        pk = await challenge()
        state = (await api(beta, f"/api/challenge/{pk}/accept", {}, tb))["game"]
        return state["id"], state["version"]

    cases: list[Case] = []
    g, _version = await game()  # Alpha is Blue, to move first
    move = f"/api/game/{g}/move"
    good = {"edge": "a1-b1", "version": Now()}
    cases += unauthenticated(alpha, move, good, revoked)
    cases += bad_bodies(alpha, move, ta)
    cases += [
        Case("someone else's game", gamma, move, good, "403", api=tg),
        Case(
            "no such game",
            alpha,
            "/api/game/nosuchgame/move",
            {"edge": "a1-b1", "version": 1},
            "404",
            api=ta,
        ),
        Case("stale version", alpha, move, {**good, "version": STALE}, "409", api=ta, state=True),
        Case("no version", alpha, move, {"edge": "a1-b1"}, "400", api=ta),
        Case(
            "version not a number",
            alpha,
            move,
            {**good, "version": "one"},
            "409",
            api=ta,
            state=True,
        ),
        Case("bad input: Infinity", alpha, move, {**good, "version": 1e400}, "400", api=ta),
        Case("no edge", alpha, move, {"version": Now()}, "400", api=ta),
        Case("edge not a string", alpha, move, {"edge": [1], "version": Now()}, "400", api=ta),
        Case("out of turn", beta, move, {**good, "edge": "a4-b4"}, "409", api=tb),
        Case(
            "illegal edge: not on the board",
            alpha,
            move,
            {**good, "edge": "z9-z10"},
            "422",
            api=ta,
            state=True,
        ),
        Case(
            "control character in the edge",
            alpha,
            move,
            {**good, "edge": "a1\x01b1"},
            "422",
            api=ta,
        ),
        Case("duplicate", alpha, move, good, "409", api=ta, first=True, state=True),
        # Beta is to move now, and a1-b1 is drawn.
        Case(
            "illegal edge: already drawn",
            beta,
            move,
            good,
            "422",
            api=tb,
            state=True,
        ),
        Case("out of turn (after a move)", alpha, move, {**good, "edge": "a2-b2"}, "409", api=ta),
    ]
    draw = f"/api/game/{g}/draw/offer"
    cases += unauthenticated(alpha, draw, {"version": Now()}, revoked)
    cases += [
        Case("someone else's game", gamma, draw, {"version": Now()}, "403", api=tg),
        Case("stale version", beta, draw, {"version": STALE}, "409", api=tb, state=True),
        Case(
            "no draw offered",
            alpha,
            f"/api/game/{g}/draw/accept",
            {"version": Now()},
            "409",
            api=ta,
        ),
        Case(
            "unknown draw action",
            alpha,
            f"/api/game/{g}/draw/x",
            {"version": Now()},
            "404",
            api=ta,
        ),
        Case("duplicate", beta, draw, {"version": Now()}, "409", api=tb, first=True),
        Case(
            "answering one's own offer",
            beta,
            f"/api/game/{g}/draw/accept",
            {"version": Now()},
            "409",
            api=tb,
        ),
    ]
    for action in ("abort", "resign"):
        path = f"/api/game/{g}/{action}"
        cases += unauthenticated(alpha, path, {"version": Now()}, revoked)
        cases += [
            Case("someone else's game", gamma, path, {"version": Now()}, "403", api=tg),
            Case("stale version", alpha, path, {"version": STALE}, "409", api=ta, state=True),
            Case("no version", alpha, path, {}, "400", api=ta),
        ]
    done, _ = await game()
    cases += [
        Case(
            "duplicate",
            alpha,
            f"/api/game/{done}/resign",
            {"version": Now()},
            "409",
            api=ta,
            first=True,
        ),
        Case(
            "after the end: move",
            beta,
            f"/api/game/{done}/move",
            {"edge": "a1-b1", "version": Now()},
            "409",
            api=tb,
        ),
        Case(
            "after the end: abort",
            beta,
            f"/api/game/{done}/abort",
            {"version": Now()},
            "409",
            api=tb,
        ),
    ]
    # Challenges: made by bots (of bots), answered by the challenged one only.
    create = "/api/challenge/betabot"
    offer = {"width": 3, "height": 3, "side": "blue"}
    cases += unauthenticated(alpha, create, offer, revoked)
    cases += bad_bodies(alpha, create, ta)
    cases += [
        Case("a person, not a bot", alpha, "/api/challenge/carol", offer, "400", api=ta),
        Case("oneself", alpha, "/api/challenge/alphabot", offer, "400", api=ta),
        Case("no such player", alpha, "/api/challenge/nosuch", offer, "404", api=ta),
        Case("bad size", alpha, create, {**offer, "width": 99}, "400", api=ta),
        Case("size not a number", alpha, create, {**offer, "width": "x"}, "400", api=ta),
        Case("bad input: Infinity", alpha, create, {**offer, "width": 1e400}, "400", api=ta),
        Case("bad timer", alpha, create, {**offer, "timer_seconds": 7}, "400", api=ta),
        Case("bad side", alpha, create, {**offer, "side": "green"}, "400", api=ta),
    ]
    pending = await challenge()
    accepted = await challenge()
    declined = await challenge()
    expired = await challenge()
    run.db.rows(
        "UPDATE api_challenge SET created_at = %s WHERE id = %s",
        ("2000-01-01 00:00:00+00:00", expired),
    )
    for action, twice in (("accept", accepted), ("decline", declined)):
        path = f"/api/challenge/{pending}/{action}"
        cases += unauthenticated(beta, path, {}, revoked)
        cases += [
            Case("a stranger's challenge", gamma, path, {}, "403", api=tg),
            Case("no such challenge", beta, f"/api/challenge/99999/{action}", {}, "404", api=tb),
            Case(
                "duplicate", beta, f"/api/challenge/{twice}/{action}", {}, "409", api=tb, first=True
            ),
        ]
    cases += [
        Case(
            "the challenger accepts", alpha, f"/api/challenge/{pending}/accept", {}, "403", api=ta
        ),
        Case("an expired challenge", beta, f"/api/challenge/{expired}/accept", {}, "409", api=tb),
    ]
    cases += await bot_page_cases(run, people, alpha, beta, gamma, spare_id)
    return cases


async def bot_page_cases(
    run: Run,
    people: dict[str, Persona],
    alpha: Persona,
    beta: Persona,
    gamma: Persona,
    spare_id: str,
) -> list[Case]:
    """The /bots/ pages: plain forms with their CSRF check, for signed-in people."""
    carol, sam, anon = people["carol"], people["sam"], people["anon"]
    eve, fred = run.persona("eve"), run.persona("fred")
    for p in (eve, fred):
        await p.get("/rooms/")
    await sign_up(eve, "eve")
    await sign_up(fred, "fred")
    await new_game(fred, size="2x2")  # an account with a game cannot become a bot
    cases: list[Case] = []
    become = "/bots/become-bot"
    cases += forged(eve, carol, become, {}, htmx=False)
    cases += [
        Case("not signed in", anon, become, {}, "login", htmx=False),
        Case("an account that has played", fred, become, {}, htmx=False),
        Case("duplicate: already a bot", eve, become, {}, htmx=False, first=True),
    ]
    # Gamma gets to five tokens, the most a bot may have.
    for _ in range(4):
        await new_token(gamma, "gammabot")
    token_new = "/bots/tokens/new"
    cases += forged(alpha, carol, token_new, {"name": "x"}, htmx=False)
    cases += [
        Case("not signed in", anon, token_new, {"name": "x"}, "login", htmx=False),
        Case("not a bot", carol, token_new, {"name": "x"}, htmx=False),
        Case("a sixth token", gamma, token_new, {"name": "x"}),
        Case("control character in the name", alpha, token_new, {"name": "x\x01"}, htmx=False),
    ]
    revoke = f"/bots/tokens/{spare_id}/revoke"
    cases += forged(alpha, carol, revoke, {}, htmx=False)
    cases += [
        Case("not signed in", anon, revoke, {}, "login", htmx=False),
        Case("another bot's token", beta, revoke, {}, htmx=False),
        Case("no such token", alpha, "/bots/tokens/99999/revoke", {}, htmx=False),
        Case("duplicate (no change)", alpha, revoke, {}, "same", htmx=False, first=True),
    ]
    challenge = "/bots/challenge/alphabot"
    offer = {"width": 3, "height": 3, "side": "random", "timer": 0}
    cases += forged(carol, sam, challenge, offer, htmx=False)
    cases += [
        Case("not signed in", anon, challenge, offer, "login", htmx=False),
        Case("a person, not a bot", carol, "/bots/challenge/sam", offer, htmx=False),
        Case("no such bot", carol, "/bots/challenge/nosuch", offer, "404", htmx=False),
        Case("oneself", alpha, challenge, offer, htmx=False),
        Case("bad size", carol, challenge, {**offer, "width": 99}, htmx=False),
        Case("bad timer", carol, challenge, {**offer, "timer": "x"}),
    ]
    status, _, where = await carol.post(challenge, offer)
    assert status == 302 and "/bots/challenges/" in where, ("challenge", status, where)
    pk = where.rstrip("/").rsplit("/", 1)[-1]
    cancel = f"/bots/challenges/{pk}/cancel"
    cases += forged(carol, sam, cancel, {}, htmx=False)
    cases += [
        Case("not signed in", anon, cancel, {}, "login", htmx=False),
        Case("someone else's challenge", sam, cancel, {}, "404", htmx=False),
        Case("no such challenge", carol, "/bots/challenges/99999/cancel", {}, "404", htmx=False),
        Case("duplicate", carol, cancel, {}, htmx=False, first=True),
    ]
    return cases


async def puzzle_cases(run: Run, people: dict[str, Persona]) -> list[Case]:
    """The trainer: every move names the step it answers; a stale, forged or repeated
    one is shown the board again with the error, and nothing is rated."""
    carol, sam, anon = people["carol"], people["sam"], people["anon"]
    ((pk, line, moves),) = query(
        run.db.env,
        "SELECT id, line, moves FROM puzzles_puzzle WHERE hidden = %s ORDER BY id LIMIT 1",
        (False,),
    )
    # JSON columns: text on SQLite, already decoded by psycopg.
    line, moves = (json.loads(v) if isinstance(v, str) else v for v in (line, moves))
    right = line[0]["accepted"][0]
    wrongs = query(run.db.env, "SELECT wrong FROM puzzles_puzzle WHERE id = %s", (pk,))[0][0]
    wrongs = json.loads(wrongs) if isinstance(wrongs, str) else wrongs
    wrong = next(iter(wrongs[0]))  # a move the stored refutation answers
    for p in (carol, anon, sam):
        await p.get(f"/puzzles/{pk}/")  # the puzzle in progress, in the session
    path = f"/puzzles/{pk}/"
    answer = {"step": "0", "edge": right}
    cases: list[Case] = []
    cases += forged(carol, sam, path, answer)
    cases += forged(anon, carol, path, answer, htmx=False)
    cases += [
        Case("stale step", carol, path, {**answer, "step": "1"}, "game"),
        Case("plain form, stale step", carol, path, {**answer, "step": "1"}, "message", htmx=False),
        Case("forged step", carol, path, {**answer, "step": "-1"}, "game"),
        Case("step not a number", carol, path, {**answer, "step": "x" * 300}, "game"),
        Case("no step", carol, path, {"edge": right}, "game"),
        Case("not an edge of the board", carol, path, {**answer, "edge": "z9-z10"}, "game"),
        Case("no edge", carol, path, {"step": "0"}, "game"),
        Case("NUL in the edge", carol, path, {**answer, "edge": "a1\x00"}),
        Case("no such puzzle", carol, "/puzzles/99999/", answer, "404"),
        Case("retry before trying (session only)", carol, path, {"retry": "1"}, "same"),
    ]
    if moves:
        cases.append(Case("already drawn", carol, path, {**answer, "edge": moves[0]}, "game"))
    cases += [
        Case("duplicate", carol, path, answer, "game", first=True),
        Case("duplicate, signed out", anon, path, answer, "game", first=True),
        # A failed puzzle stays failed: the same wrong move again is shown, not rated.
        Case(
            "duplicate wrong move (rated once)",
            sam,
            path,
            {"step": "0", "edge": wrong},
            "same",
            first=True,
        ),
    ]
    streak = "/puzzles/streak/"
    cases += forged(carol, sam, streak, {}, htmx=False)
    cases.append(Case("restart (session only)", carol, streak, {}, "same", htmx=False))
    return cases


# -- tournaments -------------------------------------------------------------------------

#: A tournament as the create form takes it.  Correspondence games (a day a move): no
#: clock runs out and no computer plays a timed-out turn while the cases are posted,
#: and an hour ahead no tick starts it.
TOURNAMENT = {
    "name": "Chaos cup",
    "kind": "arena",
    "width": 3,
    "height": 3,
    "timer": 86400,
    "rated": "on",
    "starts_in": 60,
    "duration": 30,
    "rounds": 3,
}


async def new_tournament(p: Persona, **fields: object) -> str:
    status, _, where = await p.post("/tournaments/create", {**TOURNAMENT, **fields})
    assert status == 302 and "/tournaments/" in where, ("tournament", status, where)
    return f"/tournaments/{where.rstrip('/').rsplit('/', 1)[-1]}"


async def tournament_do(p: Persona, path: str) -> None:
    status, _, _ = await p.post(path, {"featured": "1"})
    assert status == 302, (path, status)


async def tournament_cases(run: Run, people: dict[str, Persona]) -> list[Case]:
    """Tournaments: plain forms (htmx too) with their CSRF check; the organiser starts,
    the staff feature, anyone signed in joins while entries are open.  The tournament,
    entry and pairing rows are watched like every other (``MUST_WATCH``)."""
    carol, sam, anon = people["carol"], people["sam"], people["anon"]
    tina, uma, vic = (run.persona(n) for n in ("tina", "uma", "vic"))
    for p, name in ((tina, "tina"), (uma, "uma"), (vic, "vic")):
        await p.get("/rooms/")
        await sign_up(p, name)
    arena = await new_tournament(tina)  # upcoming: Vic is in, Uma not yet
    await tournament_do(vic, f"{arena}/join")
    cases: list[Case] = []
    create = "/tournaments/create"
    cases += forged(carol, sam, create, TOURNAMENT, htmx=False)
    bad = {
        "control character in the name": {"name": "Chaos\x1bcup"},
        "NUL in the name": {"name": "Chaos\x00cup"},
        "a name of spaces": {"name": "   "},
        "a name far too long": {"name": "x" * 5000},
        "a huge field": {"name": "x" * 300_000},
        "start in the past": {"starts_in": -5},
        "start past 60 days": {"starts_in": 60 * 24 * 60 + 1},
        "start not a number": {"starts_in": "soon"},
        "start past an int": {"starts_in": "9" * 5000},
        "duration too short": {"duration": 4},
        "duration past 7 days": {"duration": 7 * 24 * 60 + 1},
        "an arena without a duration": {"duration": ""},
        "rounds 0": {"kind": "swiss", "rounds": 0},
        "rounds past 15": {"kind": "swiss", "rounds": 16},
        "a Swiss without rounds": {"kind": "swiss", "rounds": ""},
        "an unknown time control": {"timer": 7},
        "no clock": {"timer": 0},
        "time control not a number": {"timer": "fast"},
        "an unknown format": {"kind": "knockout"},
        "bad size": {"width": 99},
    }
    cases += [
        Case(f"bad input: {label}", carol, create, {**TOURNAMENT, **fields}, "form", htmx=False)
        for label, fields in bad.items()
    ]
    cases.append(Case("not signed in", anon, create, TOURNAMENT, "403", htmx=False))
    join, leave = f"{arena}/join", f"{arena}/leave"
    cases += forged(uma, carol, join, {}, htmx=False)
    cases += forged(vic, carol, leave, {})
    cases += [
        Case("not signed in", anon, join, {}, "403", htmx=False),
        Case("no such tournament", uma, "/tournaments/99999/join", {}, "404", htmx=False),
        Case("duplicate: join twice", uma, join, {}, htmx=False, first=True),
        Case("already in (htmx)", vic, join, {}),
        Case("not signed in", anon, leave, {}, "403"),
        Case("leave when not entered", carol, leave, {}, htmx=False),
        Case("no such tournament", vic, "/tournaments/99999/leave", {}, "404"),
        Case("duplicate: leave twice", vic, leave, {}, htmx=False, first=True),
    ]
    start = f"{arena}/start"
    cases += forged(tina, carol, start, {}, htmx=False)
    cases += [
        Case("not the organiser", uma, start, {}, "403", htmx=False),
        Case("not the organiser (htmx)", vic, start, {}, "403"),
        Case("not signed in", anon, start, {}, "403", htmx=False),
        Case("no such tournament", tina, "/tournaments/99999/start", {}, "404", htmx=False),
    ]
    feature = f"{arena}/feature"
    cases += forged(sam, carol, feature, {"featured": "1"}, htmx=False)
    cases += [
        Case("not staff", carol, feature, {"featured": "1"}, "403", htmx=False),
        Case("not staff: the organiser", tina, feature, {"featured": "1"}, "403"),
        Case("not signed in", anon, feature, {"featured": "1"}, "403", htmx=False),
        Case("no such tournament", sam, "/tournaments/99999/feature", {"featured": "1"}, "404"),
        Case(
            "duplicate (no change)",
            sam,
            feature,
            {"featured": "1"},
            "same",
            htmx=False,
            first=True,
        ),
    ]
    # A Swiss under way (round 1 paired: a game each for Uma and Vic): entries closed.
    swiss = await new_tournament(tina, kind="swiss", rounds=2, name="Chaos Swiss")
    for p in (uma, vic):
        await tournament_do(p, f"{swiss}/join")
    await tournament_do(tina, f"{swiss}/start")
    cases += [
        Case("join after a Swiss started", carol, f"{swiss}/join", {}, htmx=False),
        Case("start twice", tina, f"{swiss}/start", {}, htmx=False),
    ]
    # Over: a Swiss started with one player ends at once; an arena past its time.
    over = await new_tournament(tina, kind="swiss", rounds=1, name="Chaos over")
    await tournament_do(uma, f"{over}/join")
    cases.append(Case("duplicate: start", tina, f"{over}/start", {}, htmx=False, first=True))
    cases += [
        Case("join after the end", carol, f"{over}/join", {}, htmx=False),
        Case("leave after the end", uma, f"{over}/leave", {}),
    ]
    ended = await new_tournament(tina, name="Chaos ended")
    await tournament_do(uma, f"{ended}/join")
    run.db.rows(
        "UPDATE tournaments_tournament SET status = 'finished', starts_at = %s, "
        "finished_at = %s WHERE id = %s",
        ("2000-01-01 00:00:00+00:00", "2000-01-01 00:30:00+00:00", ended.rsplit("/", 1)[-1]),
    )
    cases += [
        Case("join after the end (arena)", carol, f"{ended}/join", {}, htmx=False),
        Case("leave after the end (arena)", uma, f"{ended}/leave", {}, htmx=False),
    ]
    bot = next(p for p in run.personas if p.name == "alphabot")
    cases.append(Case("a bot, bots not allowed", bot, f"{arena}/join", {}, htmx=False))
    return cases


async def study_cases(run: Run, people: dict[str, Persona]) -> list[Case]:
    """Studies: only the owner edits, only staff unlist or feature, a stale or illegal edit
    is shown again with its error, an answer to no question is a message; nothing changes."""
    carol, sam, anon = people["carol"], people["sam"], people["anon"]
    new = {"s-title": "Chaos study", "s-description": "", "s-visibility": "public", "create": "1"}
    status, _, location = await carol.post("/studies/new", new)
    assert status == 302, ("new study", status)
    slug = location.rstrip("/").split("/")[-2]
    edit = f"/studies/{slug}/edit"
    status, _, _ = await carol.post(edit, {"action": "chapter", "c-title": "One", "c-size": "2x2"})
    assert status == 302, ("new chapter", status)
    chapter = f"/studies/{slug}/1/edit"
    text = "Chapter: One\nSize: 2 x 2 boxes\nQuestion: best\n"
    status, _, _ = await carol.post(chapter, {"action": "text", "version": "1", "text": text})
    assert status == 302, ("chapter text", status)
    # The solver's check of the start runs once, now: no case must meet it writing a row.
    deadline = time.monotonic() + 60
    while run.db.rows("SELECT key FROM studies_positioncheck WHERE status <> %s", ("done",)):
        assert time.monotonic() < deadline, "the study's check never ended"
        await asyncio.sleep(0.1)
    ((version,),) = run.db.rows("SELECT version FROM studies_chapter")
    cases: list[Case] = []
    cases += forged(carol, sam, "/studies/new", new, htmx=False)
    cases += [
        Case("signed out", anon, "/studies/new", new, "login", htmx=False),
        Case("bad visibility", carol, "/studies/new", {**new, "s-visibility": "x"}, "form"),
        Case(
            "unreadable import",
            carol,
            "/studies/new",
            {"i-text": "1. z9-z9", "import": "1"},
            "form",
        ),
    ]
    settings = {"action": "settings", "s-title": "Renamed", "s-visibility": "public"}
    cases += forged(carol, sam, edit, settings, htmx=False)
    cases += [
        Case("not the owner", sam, edit, settings, "404", htmx=False),
        Case("signed out", anon, edit, settings, "login", htmx=False),
        Case("board too large", carol, edit, {"action": "chapter", "c-size": "99x99"}, "form"),
        Case("no such game", carol, edit, {"action": "chapter", "c-game": "nosuch"}, "form"),
        Case("no such chapter", carol, edit, {"action": "delete_chapter", "number": "x"}, "404"),
    ]
    copy = f"/studies/{slug}/copy"
    cases += forged(sam, carol, copy, {}, htmx=False)
    cases += [
        Case("signed out", anon, copy, {}, "login", htmx=False),
        Case("no such study", sam, "/studies/nosuch/copy", {}, "404", htmx=False),
    ]
    staff = f"/studies/{slug}/staff"
    cases += forged(sam, carol, staff, {"action": "unlist"}, htmx=False)
    cases += [
        Case("not staff", carol, staff, {"action": "unlist"}, "404", htmx=False),
        Case("signed out", anon, staff, {"action": "unlist"}, "404", htmx=False),
        Case("unknown action", sam, staff, {"action": "x"}, "same", htmx=False),
    ]
    answer = f"/studies/{slug}/1/answer"
    cases += forged(anon, carol, answer, {"question": "1", "edge": "a1-b1"}, htmx=False)
    cases += [
        Case(
            "no such question",
            anon,
            answer,
            {"question": "9", "answer": "1"},
            "message",
            htmx=False,
        ),
        Case(
            "not an edge", anon, answer, {"question": "x", "edge": "z9-z9"}, "message", htmx=False
        ),
        Case(
            "no such chapter",
            anon,
            f"/studies/{slug}/7/answer",
            {"question": "1"},
            "404",
            htmx=False,
        ),
    ]
    draw = {"action": "draw", "at": "", "version": version, "edge": "a1-b1"}
    cases += forged(carol, sam, chapter, draw, htmx=False)
    cases += [
        Case("not the owner", sam, chapter, draw, "404", htmx=False),
        Case("signed out", anon, chapter, draw, "login", htmx=False),
        Case("stale version", carol, chapter, {**draw, "version": "999"}, "form", htmx=False),
        Case("not an edge", carol, chapter, {**draw, "edge": "z9-z9"}, "form", htmx=False),
        Case("no such move", carol, chapter, {**draw, "at": "7.7"}, "form", htmx=False),
        Case("unknown action", carol, chapter, {**draw, "action": "x"}, "form", htmx=False),
        Case(
            "bad value",
            carol,
            chapter,
            {**draw, "action": "annotate", "blue": "-3"},
            "form",
            htmx=False,
        ),
        # The same edge twice: the second finds it drawn there and follows it, writing nothing.
        Case("duplicate", carol, chapter, draw, "same", htmx=False, first=True),
    ]
    return cases


async def moderation_cases(run: Run, people: dict[str, Persona]) -> list[Case]:
    """Blocks (any signed-in player), chat reports, mutes and fair-play decisions (staff):
    forged, signed out, not staff, no such player or line, bad values, duplicates; each
    refused with a message or a 4xx, nothing changed."""
    carol, sam, anon = people["carol"], people["sam"], people["anon"]
    erin = run.persona("erin")
    await erin.get("/rooms/")
    await sign_up(erin, "erin")
    # A chat line of Carol's in a room of hers that Erin joined, for the chat reports.
    data = {"width": 2, "height": 2, "side": "blue", "timer": 0, "visibility": "public"}
    status, _, where = await carol.post("/rooms/new", {**data, "name": "Carol"})
    assert status == 302, ("room", status)
    room = where.rstrip("/").rsplit("/", 1)[-1]
    status, _, _ = await erin.post(f"/rooms/{room}/join", {"name": "Erin"})
    assert status == 302, ("join", status)
    status, _, _ = await carol.post(f"/rooms/{room}/chat", {"text": "a chat line"}, htmx=True)
    assert status < 400, ("chat", status)
    ((line,),) = run.db.rows("SELECT max(id) FROM rooms_message WHERE kind = 'chat'")
    cases: list[Case] = []
    # Blocks: a player blocks another; not themselves, not staff; twice is once.
    for action in ("block", "unblock"):
        path = f"/moderation/{action}/erin"
        cases += forged(carol, sam, path, {}, htmx=False)
        cases += [
            Case("signed out", anon, path, {}, "login", htmx=False),
            Case("no such player", carol, f"/moderation/{action}/nosuch", {}, "404", htmx=False),
            Case("duplicate", carol, path, {}, "message", htmx=False, first=True),
        ]
    cases += [
        Case("oneself", carol, "/moderation/block/carol", {}, "message", htmx=False),
        Case("a staff account", carol, "/moderation/block/sam", {}, "message", htmx=False),
    ]
    # Chat reports: any signed-in player reports a line; staff resolve them.
    report = f"/reports/chat/line/{line}/"
    reason = {"reason": "Rude words."}
    cases += forged(erin, sam, report, reason, htmx=False)
    cases += [
        Case("signed out", anon, report, reason, "login", htmx=False),
        Case("no such line", erin, "/reports/chat/line/99999/", reason, "404", htmx=False),
        Case("reason too long", erin, report, {"reason": "x" * 1001}, "form", htmx=False),
        Case("control character", erin, report, {"reason": "rude\x00"}, "form", htmx=False),
        # The same line twice by the same player: the first report stands.
        Case("duplicate", erin, report, reason, "same", htmx=False, first=True),
    ]
    status, _, _ = await erin.post(report, reason)
    assert status == 302, ("chat report", status)
    ((pk,),) = run.db.rows("SELECT max(id) FROM reports_chatreport")
    resolve = f"/reports/chat/{pk}/resolve/"
    note = {"note": "Checked: muted a day."}
    cases += forged(sam, carol, resolve, note, htmx=False)
    cases += [
        Case("not staff", carol, resolve, note, "404", htmx=False),
        Case("signed out", anon, resolve, note, "login", htmx=False),
        Case("no such report", sam, "/reports/chat/99999/resolve/", note, "404", htmx=False),
        Case("no note", sam, resolve, {"note": ""}, "message", htmx=False),
        Case("control character", sam, resolve, {"note": "ok\x00"}, "message", htmx=False),
        Case("duplicate", sam, resolve, note, "message", htmx=False, first=True),
    ]
    # Mutes: staff only, from an hour to a year, with a reason; muting twice is refused.
    mute = "/reports/mute/carol"
    why = {"hours": "24", "reason": "Rude words in chat."}
    cases += forged(sam, carol, mute, why, htmx=False)
    cases += [
        Case("not staff", carol, mute, why, "404", htmx=False),
        Case("signed out", anon, mute, why, "login", htmx=False),
        Case("no such player", sam, "/reports/mute/nosuch", why, "404", htmx=False),
        Case("bad hours", sam, mute, {**why, "hours": "-3"}, "message", htmx=False),
        Case("not a number", sam, mute, {**why, "hours": "x"}, "message", htmx=False),
        Case("no reason", sam, mute, {**why, "reason": " "}, "message", htmx=False),
        Case("control character", sam, mute, {**why, "reason": "x\x1b"}, "message", htmx=False),
        Case(
            "foreign next",
            sam,
            mute,
            {**why, "hours": "0", "next": "//evil.example/"},
            "message",
            htmx=False,
        ),
        Case("duplicate", sam, mute, why, "message", htmx=False, first=True),
    ]
    unmute = "/reports/unmute/carol"
    cases += forged(sam, carol, unmute, {}, htmx=False)
    cases += [
        Case("not staff", carol, unmute, {}, "404", htmx=False),
        Case("signed out", anon, unmute, {}, "login", htmx=False),
        Case("no such player", sam, "/reports/unmute/nosuch", {}, "404", htmx=False),
        Case("duplicate", sam, unmute, {}, "message", htmx=False, first=True),
    ]
    # Fair-play decisions: staff only, a known action and a reason; marking twice refused.
    decide = "/reports/fairplay/erin/decide"
    mark = {"action": "mark", "reason": "Engine moves in every game."}
    cases += forged(sam, carol, decide, mark, htmx=False)
    cases += [
        Case("not staff", carol, decide, mark, "404", htmx=False),
        Case("signed out", anon, decide, mark, "login", htmx=False),
        Case("no such player", sam, "/reports/fairplay/nosuch/decide", mark, "404", htmx=False),
        Case("unknown action", sam, decide, {**mark, "action": "x"}, "message", htmx=False),
        Case("no reason", sam, decide, {**mark, "reason": ""}, "message", htmx=False),
        Case("not marked", sam, decide, {**mark, "action": "unmark"}, "message", htmx=False),
        Case("duplicate", sam, decide, mark, "message", htmx=False, first=True),
    ]
    return cases
