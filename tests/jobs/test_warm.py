"""A server starts its engine workers as it starts (``ENGINE_WARM_AT_START``).

On a fresh server the first visitor's analysis board used to wait seconds for the
engine pools' processes to start and import the engine.  Each server kind starts
them before anyone asks (Daphne as its reactor runs, uvicorn at lifespan startup):
with no request but the monitors' one, the server's fork server starts one worker
per lane, and ``/healthz/workers`` says when they are ready.
"""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import pytest

from tests.rooms.live import asgi_servers, server_env, worker_ports


def health(url: str) -> dict:
    with urllib.request.urlopen(url + "/healthz/workers", timeout=10) as response:
        return json.loads(response.read())


def processes() -> dict[int, tuple[int, list[bytes]]]:
    """Every process: its parent and its command line."""
    found = {}
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                stat = (proc / "stat").read_text()
                args = (proc / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            found[int(proc.name)] = (int(stat.rsplit(")", 1)[1].split()[1]), args)
    return found


def engine_workers(port: int) -> int:
    """The engine pools' workers of the server on ``port``: children of its fork server."""
    table = processes()
    (server,) = (
        pid
        for pid, (_, args) in table.items()
        if str(port).encode() in args and b"dotsboxes.asgi:application" in args
    )
    forkservers = {
        pid
        for pid, (parent, args) in table.items()
        if parent == server and b"forkserver" in b" ".join(args)
    }
    return sum(parent in forkservers for parent, _ in table.values())


def start_env(tmp_path: Path, warm: str) -> dict[str, str]:
    # One worker per lane.
    return server_env(tmp_path, ENGINE_WARM_AT_START=warm, ENGINE_WORKERS="1")


@pytest.mark.parametrize("kind", ["daphne", "uvicorn"])
def test_a_server_starts_its_engine_workers_before_the_first_visitor(kind, tmp_path):
    env = start_env(tmp_path, "1")
    port = worker_ports(1)[0]
    with asgi_servers(env, [port], [kind]) as (url,):
        deadline = time.monotonic() + 90
        while (answer := health(url))["warm"] is not True:
            assert answer["warm"] is False, answer  # warming, not "never started"
            assert time.monotonic() < deadline, "the engine workers never became ready"
            time.sleep(0.2)
        assert engine_workers(port) == 2  # one per lane


def test_without_the_warm_start_the_workers_wait_for_the_first_job(tmp_path):
    env = start_env(tmp_path, "0")
    port = worker_ports(1)[0]
    with asgi_servers(env, [port], ["daphne"]) as (url,):
        assert health(url)["warm"] is None
        time.sleep(2)  # time enough for a warm start to have spawned them
        assert engine_workers(port) == 0
