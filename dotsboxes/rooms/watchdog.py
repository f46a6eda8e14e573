"""Notice when the channel layer stops delivering, and put the pages back in sync.

Pushes travel through Redis.  While it is down they are lost (each page's
version check repairs a gap, but only once the next push arrives, which may be
long after), and when it restarts it has forgotten every subscription and
group.  So each server process probes its layer every ``ROOMS_LAYER_PROBE_SECONDS``:
it sends a message to a channel of its own and waits for it.  When a probe
comes back after some were lost, the process subscribes its sockets' groups
again and tells every open socket the room's current version (a "hello"):
a page that missed something re-fetches the room at once.
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
    return float(getattr(settings, "ROOMS_LAYER_PROBE_SECONDS", 1.0))


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
    """Subscribe this process's groups again, then tell every socket to check its version."""
    sockets = list(_sockets)
    await _resubscribe(layer)
    for consumer in sockets:
        for group in getattr(consumer, "subscriptions", ()):
            try:
                await layer.group_add(group, consumer.channel_name)
            except Exception:
                logger.warning("could not rejoin %s", group, exc_info=True)
    await asyncio.gather(*(c.resync() for c in sockets), return_exceptions=True)


async def _resubscribe(layer) -> None:
    # channels-redis's pub/sub layer subscribes each group once per process and
    # believes it still is after Redis restarted: subscribe everything again.
    for shard in getattr(layer, "_shards", ()):
        names = list(getattr(shard, "_subscribed_to", ()))
        pubsub = getattr(shard, "_pubsub", None)
        if names and pubsub is not None:
            try:
                await pubsub.subscribe(*names)
            except Exception:
                logger.warning("could not subscribe again", exc_info=True)
