"""Header counts for a signed-in player: games where they are to move, unread notices."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from . import services


def header_counts(request: HttpRequest) -> dict[str, object]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # Lazy: a page that never shows the header (htmx fragments) costs no query.
    return {
        "your_turn_count": SimpleLazyObject(lambda: services.your_turn_count(user.pk)),
        "unread_notices": SimpleLazyObject(lambda: services.unread_count(user.pk)),
        # How often an open page asks for them again (two indexed counts).
        "header_poll_seconds": settings.HEADER_POLL_SECONDS,
    }
