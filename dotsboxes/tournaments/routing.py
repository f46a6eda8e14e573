"""WebSocket routes of tournament pages (pushes only)."""

from __future__ import annotations

from django.urls import re_path

from . import consumers

websocket_urlpatterns = [
    re_path(
        r"^ws/tournaments/(?P<tournament_id>[0-9]{1,12})/$", consumers.TournamentConsumer.as_asgi()
    ),
]
