"""Rate limits: how often one person, and one address, may do something costly or abusable.

One small helper for views, WebSocket consumers and anything else::

    wait = throttle.hit("chat", *throttle.request_keys(request))
    if wait:
        return throttle.too_many(request, wait)

or, for a whole view (POSTs only)::

    @throttle.limit("hint")
    def hint(request, public_id): ...

Each scope has two rates in ``settings.RATE_LIMITS``: one per person (the
signed-in user, else the browser's session) and a looser one per address
(several people can share one).  A rate is ``"<count>/<seconds>"``, with ``s``,
``m``, ``h`` or ``d`` for the unit (``"5/10s"``, ``"20/h"``).  Windows are
fixed (a counter per key and window in the cache), which is cheap: one
``incr`` per key.  The count is atomic: each action adds itself first
(``cache.add`` then ``cache.incr``, both atomic on Redis and in local memory)
and reads the count that came back, so many actions at once cannot all see
the last free place; one that went over takes itself back out.

Every refusal over HTTP is a 429 with ``Retry-After`` (:func:`too_many`, or
:func:`retry_after` on a page of one's own).

Why not django-ratelimit: its decorator needs an ``HttpRequest``, and sockets
and services have none; what is left of it here is the same fixed-window
counter in the cache, and a limit that fails open.  When the cache is down
(Redis outage) nothing is limited and nothing fails: a throttle must never
turn a legitimate move into an error.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import re
import time
from collections.abc import Callable, Iterable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import format_html
from django.utils.translation import ngettext

logger = logging.getLogger(__name__)

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd]?)\s*$")

#: Used when settings.RATE_LIMITS has no entry for a scope.
DEFAULT_RATES = {
    # scope: (per person, per address)
    # Sign-ins have no scope here: django-axes locks out failures (AXES_* settings).
    "signup": ("5/h", "20/h"),  # accounts made
    "room_create": ("10/10m", "40/10m"),
    "tournament_create": ("5/h", "20/h"),
    "report": ("5/h", "20/h"),  # reports made (a form sent back with a mistake is free)
    "block": ("30/h", "90/h"),  # blocks and unblocks
    "moderation": ("60/h", "300/h"),  # staff's mutes and fair-play decisions
    "chat": ("5/10s", "20/10s"),
    "offer": ("6/m", "20/m"),  # draw and take-back offers, and answers to them
    "hint": ("30/m", "90/m"),
    "computer_game": ("20/10m", "60/10m"),  # new games and imports against the computer
    "analysis": ("10/10m", "30/10m"),
    "socket": ("30/m", "120/m"),  # WebSocket handshakes
    "puzzle": ("60/m", "180/m"),  # puzzle moves (each is a database write)
    # Edges drawn on the play page and in rooms: 4 a second, sustained over 10 s, is
    # well above a person's speed (a chain taken in a burst is a few edges in a second);
    # a script finishing 9 x 9 games in seconds meets it.
    "move": ("40/10s", "120/10s"),
    "study_create": ("20/h", "60/h"),  # studies made, imported or copied
    "study_edit": ("120/m", "360/m"),  # an author's edits (each may queue solver checks)
    # The bot API (per token's account, per address): every call, challenges, streams.
    "api": ("300/m", "900/m"),
    "api_challenge": ("20/10m", "60/10m"),
    "api_stream": ("30/m", "120/m"),
    "api_token": ("10/h", "30/h"),  # tokens made on the profile page
    # Account settings: every try counts (each checks a password or sends mail).
    "password_change": ("10/h", "30/h"),
    "email": ("5/h", "20/h"),  # address changes and new confirmation links
    "email_confirm": ("10/h", "30/h"),
    # Reset mails: per person, per network address, and per mail address ("mail:").
    "password_reset": ("5/h", "20/h"),
    "account_close": ("5/h", "20/h"),
    "data_export": ("5/h", "20/h"),
}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"5/10s"`` -> (5, 10): at most 5 in each 10 seconds.

    >>> parse_rate("20/h"), parse_rate("5/10s"), parse_rate("3/90")
    ((20, 3600), (5, 10), (3, 90))
    """
    match = _RATE.match(rate)
    if match is None:
        raise ValueError(f"Not a rate: {rate!r} (write it as 5/10s, 20/m or 100/h).")
    count, number, unit = match.groups()
    seconds = int(number or 1) * _UNITS[unit or "s"]
    return int(count), seconds


def rates(scope: str) -> tuple[str, str]:
    """(per person, per address) for ``scope``, settings first."""
    configured = settings.RATE_LIMITS or {}
    return tuple(configured.get(scope) or DEFAULT_RATES[scope])  # type: ignore[return-value]


def request_keys(request: HttpRequest) -> list[str]:
    """Who is acting: the user or session (if any), and the address."""
    keys = []
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        keys.append(f"user:{user.pk}")
    else:
        session = getattr(request, "session", None)
        if session is not None and session.session_key:
            keys.append(f"session:{session.session_key}")
    keys.append(f"addr:{request.META.get('REMOTE_ADDR', '')}")
    return keys


def scope_keys(scope: dict) -> list[str]:
    """The same for a WebSocket's ASGI scope."""
    keys = []
    user = scope.get("user")
    session = scope.get("session")
    if user is not None and getattr(user, "is_authenticated", False):
        keys.append(f"user:{user.pk}")
    elif session is not None and session.session_key:
        keys.append(f"session:{session.session_key}")
    client = scope.get("client") or ("", 0)
    keys.append(f"addr:{client[0]}")
    return keys


def hit(scope: str, *keys: str, now: float | None = None, count: bool = True) -> int:
    """Count one action in ``scope`` for each key; 0 if allowed, else seconds to wait.

    Keys starting ``addr:`` get the per-address rate, the others the per-person
    rate.  A refused action is not counted (a flood does not push the wait back).
    ``count=False`` only asks (for actions counted once they succeed: sign-ups).
    Fails open: with the cache unreachable every action is allowed.
    """
    if not settings.RATE_LIMITS_ENABLED:
        return 0
    now = time.time() if now is None else now
    person, address = (parse_rate(r) for r in rates(scope))
    slots = []
    for key in keys:
        limit, window = address if key.startswith("addr:") else person
        start = int(now // window) * window
        slots.append((f"rl:{scope}:{key}:{window}:{start}", limit, window, start))
    try:
        if not count:
            counts = cache.get_many([slot[0] for slot in slots])
            waits = [
                math.ceil(start + window - now)
                for cache_key, limit, window, start in slots
                if counts.get(cache_key, 0) >= limit
            ]
            return max(1, max(waits)) if waits else 0
        counted, waits = [], []
        for cache_key, limit, window, start in slots:
            n = _add_one(cache_key, window)
            counted.append(cache_key)
            if n > limit:
                waits.append(math.ceil(start + window - now))
        if waits:  # refused: not counted (a flood does not fill later windows' counts)
            for cache_key in counted:
                with contextlib.suppress(ValueError):  # expired meanwhile
                    cache.decr(cache_key)
            return max(1, max(waits))
    except Exception:  # the cache is down: let the action through
        logger.warning("rate limit %s not checked: cache unavailable", scope, exc_info=True)
    return 0


def _add_one(cache_key: str, window: int) -> int:
    """Count one in ``cache_key`` atomically; the count after it."""
    for _ in range(3):
        if cache.add(cache_key, 1, timeout=window + 1):
            return 1
        try:
            return cache.incr(cache_key)
        except ValueError:  # expired between add and incr: add again
            continue
    return 1


def message(wait: int) -> str:
    """What the person reads: slow down, and for how long."""
    if wait >= 120:
        minutes = math.ceil(wait / 60)
        return ngettext(
            "Too many tries in a short time. Please wait %(count)d minute and try again.",
            "Too many tries in a short time. Please wait %(count)d minutes and try again.",
            minutes,
        ) % {"count": minutes}
    return ngettext(
        "Too many tries in a short time. Please wait %(count)d second and try again.",
        "Too many tries in a short time. Please wait %(count)d seconds and try again.",
        wait,
    ) % {"count": wait}


def too_many(request: HttpRequest, wait: int) -> HttpResponse:
    """429 with the message: a bare fragment for htmx, a full page for a plain form."""
    text = message(wait)
    if getattr(request, "htmx", False):
        html = format_html('<p class="form-error" role="alert">{}</p>', text)
        response = HttpResponse(html, status=429)
    else:
        response = render(request, "429.html", {"message": text}, status=429)
    return retry_after(response, wait)


def retry_after(response: HttpResponse, wait: int) -> HttpResponse:
    """Mark ``response`` as a refusal over a rate: status 429 and ``Retry-After``."""
    response.status_code = 429
    response["Retry-After"] = str(max(1, int(wait)))
    return response


def limit(scope: str, *, methods: Iterable[str] = ("POST",)) -> Callable:
    """Decorate a view: its POSTs count against ``scope``; over the limit it answers 429."""
    methods = frozenset(methods)

    def decorate(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method in methods:
                wait = hit(scope, *request_keys(request))
                if wait:
                    return too_many(request, wait)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
