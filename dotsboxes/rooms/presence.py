"""Who is connected, kept in the database so every server process agrees.

A player is present while at least one of their sockets is open, on any
process.  When the last one closes the opponent sees a countdown; when it runs
out the computer plays for the absent player (see ``ticker``).  Each process
beats a ``ServerBeat`` row; the sockets of a process that stopped beating
(killed, crashed) are purged by the others, so no ghost keeps a seat "present".
"""

from __future__ import annotations

import logging
import os
import uuid
from datetime import timedelta

from django.db import OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from dotsboxes.games.models import Game, Side

from . import push
from .identity import Viewer, seat_of
from .models import Connection, Room, ServerBeat
from .steps import away_grace, log_line

logger = logging.getLogger(__name__)

# This process's name in Connection.server (pid for humans, uuid for uniqueness).
SERVER_ID = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
BEAT_EVERY = timedelta(seconds=5)
STALE_AFTER = timedelta(seconds=30)


_last_beat = [timezone.now() - BEAT_EVERY * 2]


def beat(*, force: bool = True) -> None:
    """Record that this process is alive (at most every few seconds unless forced)."""
    now = timezone.now()
    if force or now - _last_beat[0] >= BEAT_EVERY:
        ServerBeat.objects.update_or_create(server=SERVER_ID, defaults={"last_seen": now})
        _last_beat[0] = now


def connection_open(
    *, public_id: str, channel_name: str, viewer: Viewer, language: str = ""
) -> tuple[int, str] | None:
    """Register a socket; return (room id, the viewer's side or "") or None if no such room."""
    beat(force=False)
    with transaction.atomic():
        room = (
            Room.objects.select_for_update()
            .select_related("game")
            .filter(game__public_id=public_id)
            .first()
        )
        if room is None:
            return None
        side = seat_of(room.game, viewer)
        Connection.objects.update_or_create(
            channel_name=channel_name,
            defaults=dict(
                room=room,
                side=side,
                viewer_key=viewer.key,
                name=viewer.name,
                server=SERVER_ID,
                language=language,
            ),
        )
        if side and (room.away_deadline(side) or room.standin(side)):
            was_standin = room.standin(side)
            room.set_presence(side, away_deadline=None, standin=False)
            room.save(update_fields=[f"{side}_away_deadline", f"{side}_standin"])
            if was_standin:
                log_line(
                    room,
                    gettext_noop("%(name)s is back and plays again."),
                    {"name": room.game.name_of(Side(side))},
                )
    # The caller pushes presence (coalesced: a crowd arriving is one push, not one each).
    return room.pk, side


def connection_close(*, channel_name: str) -> int | None:
    """Forget a socket; start the away countdown if it was a player's last one.

    Returns the room's id (the caller pushes presence), or None if unknown."""
    for attempt in range(3):
        try:
            return _close(channel_name)
        except OperationalError:
            # PostgreSQL ends one side of a deadlock; this one gives way and tries again.
            if attempt == 2:
                raise
            logger.warning("closing socket %s: deadlock, retrying", channel_name)
    return None


def _close(channel_name: str) -> int | None:
    with transaction.atomic():
        found = Connection.objects.filter(channel_name=channel_name).values_list("room_id", "side")
        if not found:
            return None
        room_id, side = found[0]
        # The room first, then its socket rows: the order every writer of rooms keeps.
        room = Room.objects.select_for_update().select_related("game").get(pk=room_id)
        deleted, _ = Connection.objects.filter(channel_name=channel_name).delete()
        if deleted:
            _after_leaving(room, {side} - {""})
    return room.pk


def _after_leaving(room: Room, sides: set[str]) -> None:
    if room.game.status != Game.Status.ACTIVE or room.is_correspondence:
        return  # correspondence players are away most of the time: no stand-in
    changed = []
    for side in sides:
        if room.connections.filter(side=side).exists() or room.away_deadline(side):
            continue
        room.set_presence(side, away_deadline=timezone.now() + away_grace(), standin=False)
        changed += [f"{side}_away_deadline", f"{side}_standin"]
    if changed:
        room.save(update_fields=changed)


def purge_stale_servers(now: object = None) -> int:
    """Drop sockets held by processes that stopped beating; return how many."""
    now = now or timezone.now()
    fresh = ServerBeat.objects.filter(last_seen__gte=now - STALE_AFTER)
    alive = set(fresh.values_list("server", flat=True)) | {SERVER_ID}
    orphans = list(
        Connection.objects.exclude(server__in=alive).values_list("pk", "room_id", "side")
    )
    ServerBeat.objects.exclude(server__in=alive).delete()
    if not orphans:
        return 0
    by_room: dict[int, set[str]] = {}
    for _pk, room_id, side in orphans:
        by_room.setdefault(room_id, set()).add(side)
    with transaction.atomic():
        # Rooms locked first and in one order, as connection_open and _close do: deleting
        # the sockets before locking their rooms deadlocked against a socket closing.
        rooms = list(
            Room.objects.select_for_update()
            .select_related("game")
            .filter(pk__in=by_room)
            .order_by("pk")
        )
        Connection.objects.filter(pk__in=[pk for pk, _r, _s in orphans]).delete()
        for room in rooms:
            _after_leaving(room, by_room[room.pk] - {""})
            push.room_after_commit(room.pk, kind="presence")
    return len(orphans)
