"""NDJSON streams: one JSON object per line, read from the database as it changes.

The truth is the database: a stream reads it when woken by a channel-layer
message (:mod:`dotsboxes.api.wake`, sent after a change commits) and otherwise
every ``API_POLL_SECONDS``, so a dropped message delays news by one poll and
never loses it.  Each read is a small indexed query that borrows a pooled
connection only while it reads; any server process can serve any stream.  An
empty line goes out when nothing happened for a while, so proxies and clients
see the stream alive.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q

from dotsboxes.games.models import Game
from dotsboxes.rooms.models import Room

from .models import Challenge
from .presenters import challenge_state, game_state
from .wake import Waiter, game_group, user_group


def poll_seconds() -> float:
    return float(settings.API_POLL_SECONDS)


def keepalive_seconds() -> float:
    return float(settings.API_KEEPALIVE_SECONDS)


def line(data: dict) -> str:
    return json.dumps(data, separators=(",", ":")) + "\n"


class _Seen:
    """What an event stream has already told its bot."""

    def __init__(self) -> None:
        self.challenges: set[int] = set()  # incoming, announced
        self.sent: set[int] = set()  # the bot's own, still pending when last read
        self.games: set[str] = set()  # active, announced


def _events_since(user_id: int, seen: _Seen) -> list[dict]:
    out: list[dict] = []
    challenges = Challenge.objects.select_related("challenger", "target", "game")
    incoming = challenges.filter(
        target_id=user_id, status=Challenge.Status.PENDING, created_at__gt=Challenge.open_since()
    )
    for challenge in incoming:
        if challenge.pk not in seen.challenges:
            seen.challenges.add(challenge.pk)
            out.append({"type": "challenge", "challenge": challenge_state(challenge)})
    if seen.sent:
        for challenge in challenges.filter(pk__in=seen.sent).exclude(
            status=Challenge.Status.PENDING
        ):
            seen.sent.discard(challenge.pk)
            if challenge.status != Challenge.Status.ACCEPTED:
                out.append({"type": "challengeDeclined", "challenge": challenge_state(challenge)})
    seen.sent |= set(
        Challenge.objects.filter(
            challenger_id=user_id, status=Challenge.Status.PENDING
        ).values_list("pk", flat=True)
    )
    mine = Q(blue_user_id=user_id) | Q(red_user_id=user_id)
    active = set(
        Game.objects.filter(mine, mode=Game.Mode.ONLINE, status=Game.Status.ACTIVE).values_list(
            "public_id", flat=True
        )
    )
    for public_id in sorted(active - seen.games):
        out.append({"type": "gameStart", "game": {"id": public_id}})
    for public_id in sorted(seen.games - active):
        out.append({"type": "gameFinish", "game": {"id": public_id}})
    seen.games = active
    return out


async def events(user_id: int) -> AsyncIterator[str]:
    """The bot's events: challenges to it, its challenges declined, its games starting
    and finishing.  Starts with what is pending and in progress now; never ends."""
    seen = _Seen()
    read = database_sync_to_async(_events_since)
    quiet_since = time.monotonic()
    async with Waiter([user_group(user_id)]) as waiter:
        while True:
            found = await read(user_id, seen)
            for event in found:
                yield line(event)
            now = time.monotonic()
            if found:
                quiet_since = now
            elif now - quiet_since >= keepalive_seconds():
                quiet_since = now
                yield "\n"
            await waiter.wait(poll_seconds())


def _state_after(public_id: str, user_id: int, version: int | None) -> dict | None:
    current = Game.objects.filter(public_id=public_id).values_list("version", flat=True).first()
    if current is None or current == version:
        return None
    room = Room.objects.select_related("game").get(game__public_id=public_id)
    return game_state(room, get_user_model()(pk=user_id))


async def game(public_id: str, user_id: int) -> AsyncIterator[str]:
    """The game's whole state now, then again after every change (every ``version``);
    ends after the state that shows the game over."""
    read = database_sync_to_async(_state_after)
    version = None
    quiet_since = time.monotonic()
    async with Waiter([game_group(public_id)]) as waiter:
        while True:
            state = await read(public_id, user_id, version)
            now = time.monotonic()
            if state is not None:
                version = state["version"]
                quiet_since = now
                yield line({"type": "gameState", "game": state})
                if state["status"] != Game.Status.ACTIVE:
                    return
            elif now - quiet_since >= keepalive_seconds():
                quiet_since = now
                yield "\n"
            await waiter.wait(poll_seconds())
