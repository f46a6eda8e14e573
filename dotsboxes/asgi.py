"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import logging
import os
import threading

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpResponseServerError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dotsboxes.settings")
logger = logging.getLogger("dotsboxes.asgi")


class OneThreadPerRequestHandler(ASGIHandler):
    """Django's ASGI handler, with the middleware chain run as one synchronous call.

    Every view of the site is synchronous and WhiteNoise's middleware is too, yet
    Django builds the chain from the inside out in async mode, so each of the other
    middleware hops into the request's thread and back for every hook (a dozen
    thread switches per request, each a lock handoff and a GIL wait on a busy
    server: most of a move's time in the server).  Here the whole chain and the view
    run in one hop, as under WSGI; what the handler itself does (reading the body,
    streaming the response) stays asynchronous."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)

    async def run_get_response(self, request):
        """The response, or a bare 500 when even Django's error handling raised.

        An exception that escapes here would skip closing the response, hence the
        ``request_finished`` signal that gives the request's pooled database
        connection back: each such request leaked one, and ten of them (an error
        page that failed under DEBUG) emptied the pool for the whole site."""
        try:
            return await super().run_get_response(request)
        except Exception:
            logger.exception("error escaped Django's handler: %s %s", request.method, request.path)
            response = HttpResponseServerError(
                "Server error.", content_type="text/plain; charset=utf-8"
            )
            response._handler_class = self.__class__
            return response


# Django must be set up before the routing modules import models.
django.setup(set_prefix=False)
django_asgi_app = OneThreadPerRequestHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from dotsboxes import gcpolicy, jobs  # noqa: E402
from dotsboxes.rooms import ticker  # noqa: E402
from dotsboxes.rooms.routing import websocket_urlpatterns as room_routes  # noqa: E402
from dotsboxes.tournaments.routing import websocket_urlpatterns as tournament_routes  # noqa: E402

# The rooms' list ends with the catch-all refusal, so the tournaments' routes go first.
websocket_urlpatterns = [*tournament_routes, *room_routes]


def warm_engine() -> None:
    """Start the engine pools' workers in the background (``ENGINE_WARM_AT_START``):
    spawning processes is no work for the event loop, and nobody waits for it."""
    if settings.ENGINE_WARM_AT_START:
        threading.Thread(target=jobs.warm, name="engine-warm", daemon=True).start()


class StartRoomClock:
    """Make sure this process's room clock runs (servers without Twisted start it here),
    and warm the engine as uvicorn starts."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        ticker.ensure_started()
        if scope["type"] == "lifespan":  # uvicorn's startup and shutdown (Channels has none)
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    warm_engine()
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        return await self.app(scope, receive, send)


ticker.start_with_server()  # under Daphne: at startup, before anyone connects
if ticker.under_daphne():
    warm_engine()
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


# Garbage collection: a full collection walks every object the process has not frozen,
# and a server holding thousands of sockets stopped for up to 1.1 s at a time, every
# few seconds (dotsboxes/gcpolicy.py).  Freeze what startup loaded and what survives
# each full collection; hand it all back every SERVER_GC_REFREEZE_SECONDS (0: off).
gcpolicy.install(settings.SERVER_GC_REFREEZE_SECONDS)
