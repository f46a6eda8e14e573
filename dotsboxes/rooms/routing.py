"""WebSocket routes (pushes only: moves travel over HTTP)."""

from __future__ import annotations

from django.urls import path, re_path

from . import consumers

websocket_urlpatterns = [
    path("ws/rooms/", consumers.LobbyConsumer.as_asgi()),
    # Ids are short slugs; a longer one cannot be a room (and would make a group
    # name past the channel layer's 100 characters).
    re_path(r"^ws/rooms/(?P<public_id>[-a-zA-Z0-9_]{1,32})/$", consumers.RoomConsumer.as_asgi()),
    re_path(r"", consumers.UnknownPathConsumer.as_asgi()),  # last: refuse the rest cleanly
]
