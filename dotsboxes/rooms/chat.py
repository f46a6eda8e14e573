"""Chat in a room: the two players' lines, as typed or picked from the presets,
at most a burst of them in a window."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from dotsboxes.games.models import Side
from dotsboxes.moderation.services import chat_refusal

from . import push
from .errors import Forbidden, RoomError, TooFast
from .identity import Viewer
from .models import CHAT_MAX_LENGTH, Message
from .steps import lock, seated

CHAT_PRESETS = ("Hello!", "Good luck", "Have fun", "Nice move", "Thanks", "Good game", "Oops")


def chat_limits() -> tuple[int, float]:
    """(messages, seconds): at most that many chat lines per player per window."""
    burst = int(float(settings.ROOMS_CHAT_BURST))
    return burst, float(settings.ROOMS_CHAT_WINDOW_SECONDS)


def room_chat(*, public_id: str, viewer: Viewer, text: str) -> Message:
    """A player says something; the text is stored as typed and escaped when shown."""
    text = " ".join(str(text).split())
    if not text:
        raise RoomError(_("Type a message or pick a phrase."))
    if len(text) > CHAT_MAX_LENGTH:
        raise RoomError(_("Keep chat messages under %(n)d characters.") % {"n": CHAT_MAX_LENGTH})
    if refusal := chat_refusal(viewer.user_id):
        raise Forbidden(refusal)
    with transaction.atomic():
        room, game = lock(public_id)
        side = seated(game, viewer, _("Only the two players can chat; you are watching this game."))
        burst, window = chat_limits()
        since = timezone.now() - timedelta(seconds=window)
        recent = room.messages.filter(author_key=viewer.key, created_at__gte=since).count()
        if recent >= burst:
            raise TooFast(_("You are sending messages too fast: wait a few seconds."))
        message = Message.objects.create(
            room=room,
            kind=Message.Kind.CHAT,
            side=side,
            author_key=viewer.key,
            name=game.name_of(Side(side)),
            text=text,
        )
        push.room_after_commit(room.pk, kind="chat")
    return message
