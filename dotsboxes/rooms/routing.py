"""WebSocket routes (pushes only: moves travel over HTTP)."""

from __future__ import annotations

from django.urls import path, re_path

from . import consumers

websocket_urlpatterns = [
    path("ws/rooms/", consumers.LobbyConsumer.as_asgi()),
    path("ws/rooms/<slug:public_id>/", consumers.RoomConsumer.as_asgi()),
    re_path(r"", consumers.UnknownPathConsumer.as_asgi()),  # last: refuse the rest cleanly
]
