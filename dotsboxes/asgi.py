"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dotsboxes.settings")
# Django must be set up before the routing modules import models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from dotsboxes.rooms import ticker  # noqa: E402
from dotsboxes.rooms.routing import websocket_urlpatterns  # noqa: E402


class StartRoomClock:
    """Make sure this process's room clock runs (servers without Twisted start it here)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        ticker.ensure_started()
        if scope["type"] == "lifespan":  # uvicorn's startup and shutdown (Channels has none)
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        return await self.app(scope, receive, send)


ticker.start_with_server()  # under Daphne: at startup, before anyone connects
application = StartRoomClock(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
)
