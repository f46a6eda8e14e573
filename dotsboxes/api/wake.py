"""Wake-ups for the API's streams: a small channel-layer message when a bot has news.

The streams read their truth from the database; these messages only tell a
stream to read now instead of at its next poll, so a bot hears of a move in
milliseconds rather than within ``API_POLL_SECONDS``.  A message that is lost
(the layer may drop one) costs at most one poll interval, never a change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.dispatch import receiver

from dotsboxes.games.events import GameChanged, game_changed
from dotsboxes.games.models import Game

from .marks import bot_ids

logger = logging.getLogger(__name__)
WAKE = {"type": "api.wake"}


def game_group(public_id: str) -> str:
    return f"api.game.{public_id}"


def user_group(user_id: int) -> str:
    return f"api.user.{user_id}"


def _send(groups: list[str]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group in groups:
        try:
            async_to_sync(layer.group_send)(group, WAKE)
        except Exception as exc:  # the stream's next poll finds the change anyway
            logger.warning("wake-up for %s failed: %r", group, exc)


def users_after_commit(*user_ids: int) -> None:
    """Wake the event streams of these users once the transaction commits."""
    groups = [user_group(i) for i in user_ids if i]
    transaction.on_commit(lambda: _send(groups))


@receiver(game_changed, dispatch_uid="api.wake")
def on_game_changed(sender: object, *, change: GameChanged, **kwargs: object) -> None:
    """A change to a game a bot sits in: wake its game streams, and its event streams
    when the game starts or ends.  Games without a bot cost one set lookup."""
    game = change.game
    if game.mode != Game.Mode.ONLINE:
        return
    bots = [i for i in (game.blue_user_id, game.red_user_id) if i and i in bot_ids()]
    if not bots:
        return
    groups = [game_group(game.public_id)]
    if change.event == "seated" or not change.active:
        groups += [user_group(i) for i in bots]
    _send(groups)


class Waiter:
    """A stream's own channel in ``groups``; :meth:`wait` returns on a wake-up or a timeout."""

    def __init__(self, groups: list[str]) -> None:
        self.groups = groups
        self.layer = get_channel_layer()
        self.channel = ""

    async def __aenter__(self) -> Waiter:
        if self.layer is not None:
            try:
                self.channel = await self.layer.new_channel("api.")
                for group in self.groups:
                    await self.layer.group_add(group, self.channel)
            except Exception as exc:  # polling alone still works
                logger.warning("stream wake-ups unavailable: %r", exc)
                self.channel = ""
        return self

    async def wait(self, timeout: float) -> None:
        if not self.channel:
            await asyncio.sleep(timeout)
            return
        try:
            await asyncio.wait_for(self.layer.receive(self.channel), timeout)
        except TimeoutError:
            pass
        except Exception as exc:
            logger.warning("stream wake-up failed: %r", exc)
            await asyncio.sleep(timeout)

    async def __aexit__(self, *exc: object) -> None:
        if self.channel:
            for group in self.groups:
                with contextlib.suppress(Exception):
                    await self.layer.group_discard(group, self.channel)
