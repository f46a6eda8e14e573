"""A real server is killed while the computer thinks; the next one finishes its move.

Everything goes over HTTP to uvicorn processes sharing one database (the SQLite
file or PostgreSQL database of :func:`tests.rooms.live.server_env`), with one
browser's cookies kept across the restart.  The server gets ``SIGKILL`` with its
whole process group (its engine workers too): no shutdown code runs, as when a
machine loses power.  The master on 9 x 9 boxes thinks for seconds, so the kill
lands while it is still thinking (the test checks that it did).
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from tests.rooms.live import (
    ROOT,
    check_port_free,
    drop_database,
    server_command,
    server_env,
    wait_for_port,
    worker_ports,
)


class Browser:
    """One browser: a cookie jar, no redirects followed, the CSRF token sent on posts."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect
        )

    def request(self, path: str, data: dict | None = None, *, htmx: bool = False):
        headers = {"HX-Request": "true"} if htmx else {}
        body = None
        if data is not None:
            token = next(c.value for c in self.jar if c.name == "csrftoken")
            headers["X-CSRFToken"] = token
            body = urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.headers, response.read().decode()
        except urllib.error.HTTPError as exc:  # redirects and 204 land here or above
            return exc.code, exc.headers, exc.read().decode()


def start(env: dict[str, str], port: int, log: Path) -> subprocess.Popen:
    """A uvicorn server in a process group of its own (so its engine workers die with it)."""
    check_port_free(port)
    with open(log, "a") as out:
        process = subprocess.Popen(
            server_command("uvicorn", port),
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    wait_for_port(port, process)
    return process


def kill(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):  # already gone
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def test_a_server_killed_while_the_computer_thinks_leaves_the_game_exact_and_it_moves_later(
    tmp_path,
):
    env = server_env(tmp_path)
    port = worker_ports(1)[0]
    log = tmp_path / "uvicorn.log"
    first = start(env, port, log)
    second = None
    try:
        alice = Browser(f"http://127.0.0.1:{port}")
        assert alice.request("/play/")[0] == 200
        form = {"mode": "computer", "size": "custom", "width": 9, "height": 9}
        status, headers, _ = alice.request("/play/", form | {"side": "blue", "level": "master"})
        assert status == 302, log.read_text()
        game = headers["Location"]
        status, _, page = alice.request(game)
        version = int(re.search(r'id="game"[^>]*data-version="(\d+)"', page).group(1))
        status, _, fragment = alice.request(
            game + "move", {"edge": "a1-b1", "version": version, "ply": 0}, htmx=True
        )
        assert status == 200 and "Computer is thinking…" in fragment
        kill(first)  # mid-thought: the master needs seconds on 9 x 9

        second = start(env, port, log)
        # The game is stored exactly as the killed server left it: the player's
        # edge, the version it answered with, and the computer still to move.
        status, _, record = alice.request(game + "record.txt")
        assert status == 200 and "1. a1-b1" in record
        assert not re.search(r"(^|\s)2\. ", record), "the computer moved before the kill"
        version += 1
        status, _, page = alice.request(game)
        assert f'data-version="{version}"' in page and "Computer is thinking…" in page
        assert 'class="edge drawn by-blue last" data-edge="a1-b1"' in page
        # This browser still owns the game, and lists it, after the restart.
        assert game in alice.request("/play/mine/")[2]
        assert "You are watching" not in page

        # The page polls while the computer thinks; that poll restarts it if need be.
        deadline = time.monotonic() + 90
        while True:
            status, _, body = alice.request(f"{game}wait?version={version}&ply=1", htmx=True)
            if status == 200:
                break
            assert status == 204 and time.monotonic() < deadline, "the computer never moved"
            time.sleep(0.5)
        assert "by-red" in body and 'class="slot"' in body  # its edge, then the player's turn
        record = alice.request(game + "record.txt")[2]
        assert re.search(r"1\. a1-b1\s+2\. [a-i]\d-[a-i]\d", record)
    finally:
        for process in (first, second):
            if process is not None:
                kill(process)
        drop_database(env)
