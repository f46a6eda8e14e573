"""A private redis-server for outage tests: started, stopped and restarted at will.

Never the shared Redis on 6379: other people's tests use it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time

import pytest

_worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:]
#: This xdist worker's port (6391, 6393, ...); the chaos suite's short runs take the next one.
OUTAGE_PORT = 6391 + 2 * (int(_worker) if _worker.isdigit() else 0)


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


class RedisServer:
    def __init__(self, port: int = OUTAGE_PORT) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        if _answers(self.port):
            raise RuntimeError(f"something already answers on port {self.port}")
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not _answers(self.port):
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture
def own_redis():
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer().start()
    yield server
    server.stop()
