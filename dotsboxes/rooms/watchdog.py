"""Notice when the channel layer stops delivering, and put the pages back in sync.

Pushes travel through Redis.  While it is down they are lost (each page's
version check repairs a gap, but only once the next push arrives, which may be
long after), and when it restarts it has forgotten every subscription and
group.  So each server process probes its layer every ``ROOMS_LAYER_PROBE_SECONDS``:
it sends a message to a channel of its own and waits for it.  When a probe
comes back after some were lost, the process subscribes its sockets' groups
again and tells every open socket the room's current version (a "hello"):
a page that missed something re-fetches the room at once.

A second lost probe in a row also throws the process's Redis connection away
(:func:`reconnect`): the connection itself can be wedged while Redis is fine.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from channels.layers import get_channel_layer
from django.conf import settings

logger = logging.getLogger(__name__)

_sockets: weakref.WeakSet = weakref.WeakSet()
_tasks: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}


def probe_seconds() -> float:
    return float(settings.ROOMS_LAYER_PROBE_SECONDS)


def register(consumer: object) -> None:
    """Remember an open socket (a consumer with ``subscriptions`` and ``resync()``); start
    watching."""
    _sockets.add(consumer)
    layer = get_channel_layer()
    if not hasattr(layer, "_shards") or not hasattr(layer, "_get_group_channel_name"):
        # Only the pub/sub layer (the default with REDIS_URL) is watched: the
        # in-memory layer lives in the process, and channels-redis's list layer
        # shares one blocking read per process, which a timed-out probe would cancel.
        return
    loop = asyncio.get_running_loop()
    task = _tasks.get(loop)
    if task is None or task.done():
        _tasks[loop] = loop.create_task(_watch(layer))


def unregister(consumer: object) -> None:
    _sockets.discard(consumer)


async def _watch(layer) -> None:
    probe = Probe(layer)
    lost = 0
    while True:
        await asyncio.sleep(probe_seconds())
        if await probe.delivered():
            if lost:
                logger.warning("channel layer back after %d lost probes: resyncing", lost)
                await restore(layer)
            lost = 0
        else:
            lost += 1
            if lost == 1:
                logger.warning("channel layer probe lost: pushes may be lost until it is back")
            else:
                await reconnect(layer)


class Probe:
    """A message to ourselves through the layer: did it arrive in time?"""

    def __init__(self, layer) -> None:
        self.layer = layer
        self.channel: str | None = None

    async def delivered(self) -> bool:
        timeout = max(1.0, 2 * probe_seconds())
        try:
            if self.channel is None:
                self.channel = await asyncio.wait_for(self.layer.new_channel("probe."), timeout)
            await asyncio.wait_for(self.layer.send(self.channel, {"type": "probe"}), timeout)
            await asyncio.wait_for(self.layer.receive(self.channel), timeout)
            return True
        except Exception:
            self.channel = None  # subscribe a fresh one next time
            return False


async def restore(layer) -> None:
    """Subscribe this process's channels and groups again, then tell every socket to
    check its version."""
    sockets = list(_sockets)
    await _resubscribe(layer)
    await asyncio.gather(*(c.resync() for c in sockets), return_exceptions=True)


async def _resubscribe(layer) -> None:
    # Redis forgets every subscription when it restarts, and channels-redis's
    # pub/sub layer still believes them made.  Its own maps of this process's
    # channels and groups are the truth (they outlive a lost connection): subscribe
    # all of them again, one SUBSCRIBE per shard.
    wanted: dict[object, list[str]] = {}
    for name in [*layer.channels, *layer.groups]:
        wanted.setdefault(layer._get_shard(name), []).append(name)
    for shard, names in wanted.items():
        try:
            async with shard._lock:
                shard._ensure_redis()
                shard._ensure_receiver()
                await shard._pubsub.subscribe(*names)
                shard._subscribed_to.update(names)
        except Exception:
            logger.warning("could not subscribe again", exc_info=True)


async def reconnect(layer) -> None:
    """Give each of the layer's shards a new Redis connection.

    After a lost connection, channels-redis's receive task and any subscribe both
    connect the one pub/sub connection again, and when they do it at once the two
    handshakes interleave: every later subscribe then fails ("readuntil() called
    while another coroutine is already waiting for incoming data") and the process
    hears nothing more (in our test, at the second of several short outages).  A
    new connection has nothing subscribed, so its receive task waits (it reads only
    once something is) and the next subscribe connects alone; :func:`restore` then
    subscribes the rest."""
    for shard in getattr(layer, "_shards", ()):
        task, client = shard._receive_task, shard._redis
        shard._lock = asyncio.Lock()  # a subscribe stuck on the old connection holds the old
        shard._receive_task = shard._redis = shard._pubsub = None
        shard._subscribed_to = set()
        if task is not None:
            task.cancel()
        if client is not None:
            try:
                await asyncio.wait_for(client.aclose(close_connection_pool=True), 1)
            except Exception:
                logger.info("the old Redis connection did not close cleanly", exc_info=True)
