"""A tournament page's socket: pushes only, in the page's language."""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.utils import translation

from dotsboxes.rooms import push as room_push
from dotsboxes.rooms.consumers import PushOnlyConsumer
from dotsboxes.rooms.identity import socket_language

from . import push
from .models import Tournament


def _current(tournament_id: int, language: str) -> str:
    """The live part as it is now (a change committed before this socket joined its
    group was pushed to nobody here)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return ""
    with translation.override(language):
        return push.render_live(tournament)


class TournamentConsumer(PushOnlyConsumer):
    async def connect(self) -> None:
        tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        language = socket_language(self.scope)
        self.subscriptions = (room_push.language_group(f"tournament.{tournament_id}", language),)
        await self.join()  # first: a change committed from now on reaches this socket
        await self.accept()
        html = await database_sync_to_async(_current, thread_sensitive=False)(
            tournament_id, language
        )
        if html:
            await self.send(text_data=html)

    async def disconnect(self, code: int) -> None:
        await self.leave()
