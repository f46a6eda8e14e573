"""WebSocket routes (pushes only: moves travel over HTTP)."""

websocket_urlpatterns: list = []
