"""Servers for the chaos scripts: a fresh database, real uvicorn processes, their logs.

Only 127.0.0.1 is ever targeted.  PostgreSQL databases are made on the server named
by ``CHAOS_PG`` (default: the local one) and dropped afterwards.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing, contextmanager, suppress
from pathlib import Path

from tests.reliability.redis_server import RedisServer  # noqa: F401 (for the scripts)

ROOT = Path(__file__).resolve().parents[2]
PORT_BASE = int(os.environ.get("TEST_PORT_BASE", "8520")) + 85  # past the 8 xdist workers x 10
_DATABASE_URL = os.environ.get("DATABASE_URL", "")
PG_SERVER = os.environ.get("CHAOS_PG") or (
    _DATABASE_URL.rsplit("/", 1)[0]
    if _DATABASE_URL.startswith("postgres")
    else "postgres://postgres@127.0.0.1:5432"
)


def port_free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def wait_for_port(port: int, process: subprocess.Popen | None = None, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"server on {port} exited with {process.returncode}")
        if not port_free(port):
            return
        time.sleep(0.1)
    raise RuntimeError(f"nothing answered on {port} within {timeout} s")


def _pg(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as admin:
        admin.execute(sql)


@contextmanager
def site_env(
    tmp: Path, *, database: str = "sqlite", debug: bool = False, redis_url: str = "", **extra: str
) -> Iterator[dict[str, str]]:
    """The environment of a fresh site: migrated database, DEBUG as asked, rate limits on."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    prefix = f"chaos-{uuid.uuid4().hex[:8]}"  # its own channel and cache keys in Redis
    env.update(
        DJANGO_SETTINGS_MODULE="dotsboxes.settings",
        DEBUG="1" if debug else "0",
        SECRET_KEY="chaos-" + uuid.uuid4().hex,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        SECURE_HSTS_SECONDS="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        PYTHONUNBUFFERED="1",
        ENGINE_WORKERS="1",
        CHANNEL_PREFIX=prefix,
        CACHE_KEY_PREFIX=prefix,
        LOG_LEVEL="WARNING",
        # Its own: two sites collecting into one folder at once (xdist) broke collectstatic.
        STATIC_ROOT=str(tmp / "static"),
    )
    name = ""
    if database == "postgres":
        name = f"dotsboxes_chaos_{uuid.uuid4().hex[:8]}"
        _pg(f'CREATE DATABASE "{name}"')
        env["DATABASE_URL"] = f"{PG_SERVER}/{name}"
    else:
        env["SQLITE_PATH"] = str(tmp / f"chaos-{uuid.uuid4().hex[:6]}.sqlite3")
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update(extra)
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True
        )
        if not debug:  # DEBUG=0 serves the hashed files collectstatic lists
            subprocess.run(
                [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                cwd=ROOT,
                env=env,
                check=True,
            )
        yield env
    finally:
        if name:
            _pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Server:
    """One uvicorn process group (killable whole), logging to a file."""

    def __init__(self, env: dict[str, str], port: int, log: Path) -> None:
        self.env, self.port, self.log_path = env, port, log
        self.process: subprocess.Popen | None = None
        self.url = f"http://127.0.0.1:{port}"

    def start(self) -> Server:
        if not port_free(self.port):
            raise RuntimeError(f"port {self.port} is taken")
        log = open(self.log_path, "a")  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                # As deployed (docs/DEPLOY.md): at uvicorn's default 5 s, a client
                # reusing a connection the server was closing just then got "Server
                # disconnected" (a bad-posts run on a loaded CI machine).
                "--timeout-keep-alive",
                "30",
                "--no-access-log",
                "dotsboxes.asgi:application",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_for_port(self.port, self.process)
        return self

    def kill(self) -> None:
        """SIGKILL the whole process group (server and engine workers), as a crash would."""
        if self.process is not None:
            with suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            with suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)
            self.kill()

    def tracebacks(self) -> int:
        return self.log_path.read_text(errors="replace").count("Traceback (most recent call last)")

    def first_traceback(self) -> str:
        """The first traceback in the log, with the lines just before it."""
        text = self.log_path.read_text(errors="replace")
        at = text.find("Traceback (most recent call last)")
        return "" if at < 0 else text[max(0, at - 300) : at + 4000]


@contextmanager
def servers(env: dict[str, str], tmp: Path, count: int = 1, first_port: int = PORT_BASE):
    running = [
        Server(env, first_port + i, tmp / f"server-{first_port + i}.log") for i in range(count)
    ]
    try:
        for server in running:
            server.start()
        yield running
    finally:
        for server in running:
            server.stop()


def query(env: dict[str, str], sql: str, params: tuple = ()) -> list[tuple]:
    """Rows of ``sql`` (``%s`` placeholders) read straight from the site's database.

    The scripts check what was stored with this, never through the server under test."""
    url = env.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as connection:
            cursor = connection.execute(sql, params)
            return cursor.fetchall() if cursor.description else []
    import sqlite3

    path = env.get("SQLITE_PATH") or url.removeprefix("sqlite:///")
    with closing(sqlite3.connect(path, timeout=30)) as connection:
        cursor = connection.execute(sql.replace("%s", "?"), params)
        rows = cursor.fetchall()
        connection.commit()
        return rows


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_async(coro: Coroutine):
    """``asyncio.run`` on a fresh loop in its own thread.

    Playwright's sync API keeps a loop running in the main thread for the whole
    session, so a chaos test that shares an xdist worker with the browser tests
    cannot start one there ("asyncio.run() cannot be called from a running event loop")."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
