"""A tournament page's socket: pushes only, in the page's language."""

from __future__ import annotations

from dotsboxes.rooms import push as room_push
from dotsboxes.rooms.consumers import PushOnlyConsumer
from dotsboxes.rooms.identity import socket_language


class TournamentConsumer(PushOnlyConsumer):
    async def connect(self) -> None:
        group = f"tournament.{int(self.scope['url_route']['kwargs']['tournament_id'])}"
        self.subscriptions = (room_push.language_group(group, socket_language(self.scope)),)
        await self.join()
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.leave()
