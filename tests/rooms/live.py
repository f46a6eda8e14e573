"""Real ASGI servers for tests: uvicorn and Daphne in subprocesses, sharing one database.

The servers get a freshly migrated database of their own (a SQLite file, or a
new PostgreSQL database beside the test database, dropped afterwards) and the
tests talk to them only over HTTP and WebSockets.  Sharing pytest-django's test
database does not work: its flush after each test (TRUNCATE of every table)
deadlocks with the servers' room clock, which keeps locking rows meanwhile.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
# 10 ports per xdist worker; TEST_PORT_BASE lets two checkouts run the suite side by side.
PORT_BASE = int(os.environ.get("TEST_PORT_BASE", "8520"))


def worker_ports(count: int) -> list[int]:
    """Ports for this xdist worker (gw0 -> 8520.., gw1 -> 8530..)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    base = PORT_BASE + 10 * (index % 8)
    return [base + i for i in range(count)]


def check_port_free(port: int) -> None:
    """Refuse to start a server on a port something else answers on.

    Otherwise :func:`wait_for_port` would find that other server listening and the
    test would talk to it (another checkout's server, a developer's runserver).
    """
    with socket.socket() as sock:
        sock.settimeout(0.2)
        if sock.connect_ex(("127.0.0.1", port)) == 0:
            raise RuntimeError(
                f"port {port} is already in use: stop what listens there or set TEST_PORT_BASE"
            )


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 30) -> None:
    """Return once ``process`` accepts connections on ``port``; raise if it exits or stalls."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited with {process.returncode}")
        with socket.socket() as sock:
            sock.settimeout(0.2)
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"no server answered on port {port} within {timeout} s")


def server_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """Environment for server subprocesses: their own fresh database, this test's layer."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    # A server's own Redis keys: on the suite's shared Redis, servers of other tests
    # (both xdist workers') would otherwise count this one's handshakes per address
    # and per user id, which every fresh database starts again at 1.
    prefix = f"live-{uuid.uuid4().hex[:8]}"
    env.update(
        DJANGO_SETTINGS_MODULE="dotsboxes.settings",
        DEBUG="1",
        PYTHONUNBUFFERED="1",
        CHANNEL_PREFIX=prefix,
        CACHE_KEY_PREFIX=prefix,
        ENGINE_WORKERS="1",
        LIVE_LOG_DIR=str(tmp_path),
    )
    if connection.vendor == "postgresql":
        db = connection.settings_dict
        server = (
            f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}"
        )
        name = f"{db['NAME']}_live_{uuid.uuid4().hex[:8]}"
        _admin(server, f'CREATE DATABASE "{name}"')
        env["LIVE_PG_SERVER"], env["LIVE_PG_DB"] = server, name
        env["DATABASE_URL"] = f"{server}/{name}"
    else:
        env.pop("DATABASE_URL", None)
        env["SQLITE_PATH"] = str(tmp_path / "live.sqlite3")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=180,
    )
    env.update(extra)
    return env


def _admin(server: str, sql: str) -> None:
    """Run one statement on the maintenance database (CREATE/DROP DATABASE need autocommit)."""
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(sql)


def server_command(kind: str, port: int, *, quiet: bool = False) -> list[str]:
    """The command line of one ASGI server: uvicorn (production) or Daphne (runserver's).

    ``quiet`` (the benchmark): no access log, warnings only, and a keep-alive longer
    than aiohttp's 15 s idle one, so a server never closes a connection the client
    is about to reuse."""
    app = "dotsboxes.asgi:application"
    if kind == "uvicorn":
        command = [sys.executable, "-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port)]
        if quiet:
            command += ["--log-level", "warning", "--timeout-keep-alive", "30", "--no-access-log"]
        return [*command, app]
    return [
        *(sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)),
        *(("-v", "0") if quiet else ()),
        app,
    ]


def stop(processes: list[subprocess.Popen], timeout: float = 10) -> None:
    """Ask every server to stop, then kill those that have not within ``timeout``."""
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()


@contextmanager
def daphne_servers(env: dict[str, str], ports: list[int]) -> Iterator[list[str]]:
    """One Daphne process per port (the server ``runserver`` uses)."""
    with asgi_servers(env, ports, ["daphne"] * len(ports)) as urls:
        yield urls


@contextmanager
def asgi_servers(env: dict[str, str], ports: list[int], kinds: list[str]) -> Iterator[list[str]]:
    """Start one server process per port, of the given kinds; yield their base URLs; stop them."""
    processes: list[subprocess.Popen] = []
    logs = []
    try:
        for port, kind in zip(ports, kinds, strict=True):
            check_port_free(port)
            log = open(Path(env.get("LIVE_LOG_DIR", "/tmp")) / f"{kind}-{port}.log", "w")  # noqa: SIM115
            logs.append(log)
            processes.append(
                subprocess.Popen(
                    server_command(kind, port),
                    cwd=ROOT,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        for port, process in zip(ports, processes, strict=True):
            wait_for_port(port, process)
        yield [f"http://127.0.0.1:{port}" for port in ports]
    finally:
        stop(processes)
        for log in logs:
            log.close()
        drop_database(env)


def drop_database(env: dict[str, str]) -> None:
    """Drop the PostgreSQL database :func:`server_env` made (a SQLite file goes with tmp_path)."""
    if env.get("LIVE_PG_DB"):
        _admin(env["LIVE_PG_SERVER"], f'DROP DATABASE IF EXISTS "{env["LIVE_PG_DB"]}" WITH (FORCE)')
