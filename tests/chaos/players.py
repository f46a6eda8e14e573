"""HTTP players for the chaos scripts: a browser session each (cookies, CSRF), aiohttp."""

from __future__ import annotations

import re

import aiohttp

VERSION = re.compile(r'id="room-sync"[^>]*data-version="(\d+)"')


class Player:
    def __init__(self, base: str) -> None:
        self.base = base
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))

    def csrf(self) -> str:
        return next((c.value for c in self.session.cookie_jar if c.key == "csrftoken"), "")

    async def get(self, path: str, **kwargs) -> tuple[int, str]:
        async with self.session.get(self.base + path, allow_redirects=False, **kwargs) as r:
            return r.status, await r.text(errors="replace")

    async def post(self, path: str, data: dict, *, htmx: bool = True) -> tuple[int, str, str]:
        data = {**data, "csrfmiddlewaretoken": self.csrf()}
        headers = {"HX-Request": "true"} if htmx else {}
        async with self.session.post(
            self.base + path, data=data, headers=headers, allow_redirects=False
        ) as r:
            return r.status, await r.text(errors="replace"), r.headers.get("Location", "")

    async def close(self) -> None:
        await self.session.close()


async def room_between(base: str, size: int = 3, other_base: str | None = None, *, timer: int = 0):
    """Alice opens a room (Blue), Bob (possibly on another server) takes Red; their room id."""
    alice, bob = Player(base), Player(other_base or base)
    await alice.get("/rooms/")
    await bob.get("/rooms/")
    data = {
        "width": size,
        "height": size,
        "side": "blue",
        "timer": timer,
        "visibility": "public",
        "name": "Alice",
    }
    status, _, where = await alice.post("/rooms/new", data, htmx=False)
    assert status == 302, status
    room = where.rstrip("/").rsplit("/", 1)[-1]
    status, _, _ = await bob.post(f"/rooms/{room}/join", {"name": "Bob"}, htmx=False)
    assert status == 302, status
    return alice, bob, room


async def room_version(player: Player, room: str) -> int:
    _, html = await player.get(f"/rooms/{room}/state")
    match = VERSION.search(html)
    return int(match[1]) if match else -1


async def computer_game(player: Player, size: str = "3x3", level: str = "beginner") -> str:
    await player.get("/play/")
    data = {"mode": "computer", "size": size, "side": "blue", "level": level}
    status, _, where = await player.post("/play/", data, htmx=False)
    assert status == 302, status
    return where.rstrip("/").rsplit("/", 1)[-1]
