"""The Redis cache keeps one connection pool per process, however many requests come.

Needs a real Redis (``REDIS_URL``: the PostgreSQL + Redis run of CI).
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import os

import pytest
from django.core.cache import caches

pytestmark = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL): the cache under test"
)


def redis_sockets() -> int:
    """This process's open TCP connections to Redis's port."""
    port = f":{int(os.environ['REDIS_URL'].rsplit(':', 1)[1].split('/')[0]):04X}"
    inodes = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            link = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[len("socket:[") : -1])
    found = 0
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        for line in open(table).read().splitlines()[1:]:  # noqa: SIM115 (a /proc file)
            fields = line.split()
            found += fields[2].endswith(port) and fields[9] in inodes
    return found


def test_requests_in_their_own_contexts_share_one_redis_connection():
    # Under ASGI every request is its own async context, and Django makes a cache
    # object per context.  Each used to open a connection that only a full garbage
    # collection closed, and a server freezes what survives one (dotsboxes.gcpolicy):
    # collection is off here, as for what a server has frozen.
    async def request(i: int) -> None:
        caches["default"].set(f"test-rediscache-{i}", i, 5)

    async def requests() -> None:
        for i in range(30):  # each in a context of its own, as uvicorn and Daphne run them
            await asyncio.create_task(request(i), context=contextvars.Context())

    before = redis_sockets()
    gc.disable()
    try:
        asyncio.run(requests())
        opened = redis_sockets() - before
    finally:
        gc.enable()
    assert opened <= 1, f"30 requests left {opened} Redis connections open"
    assert caches["default"].get("test-rediscache-29") == 29
