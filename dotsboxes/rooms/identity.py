"""Who is looking at a room: a signed-in user, or a browser identified by its session.

Anonymous seats are bound to a random token kept in the browser's session
(never the session key itself, which Django rotates at sign-in), together with
the display name the person chose.
"""

from __future__ import annotations

import contextlib
import secrets
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header

from dotsboxes.games.models import Game
from dotsboxes.games.seats import Actor

TOKEN_KEY = "rooms_token"
NAME_KEY = "rooms_name"
NAME_MAX = 24


@dataclass(frozen=True)
class Viewer:
    """A person in front of a room page or socket."""

    user_id: int | None
    token: str  # "" until the browser takes a seat or creates a room
    name: str  # display name ("" for an anonymous spectator who never chose one)
    key: str  # counts one person once: "u:<id>", "t:<token>", "s:<session>" or "c:<channel>"

    @property
    def signed_in(self) -> bool:
        return self.user_id is not None


def _viewer(user: object, session: SessionBase | None, fallback: str) -> Viewer:
    token = (session.get(TOKEN_KEY) if session is not None else "") or ""
    if getattr(user, "is_authenticated", False):
        name = (user.get_username() or "Player")[:NAME_MAX]  # type: ignore[attr-defined]
        return Viewer(user.pk, token, name, f"u:{user.pk}")  # type: ignore[attr-defined]
    name = (session.get(NAME_KEY) if session is not None else "") or ""
    if token:
        key = f"t:{token}"
    elif session is not None and session.session_key:
        key = f"s:{session.session_key}"
    else:
        key = fallback
    return Viewer(None, token, name, key)


def viewer_from_request(request: object) -> Viewer:
    """The viewer behind an HTTP request (no session is created)."""
    return _viewer(request.user, request.session, "c:anonymous")  # type: ignore[attr-defined]


def viewer_from_scope(scope: dict, channel_name: str) -> Viewer:
    """The viewer behind a WebSocket (Channels' session and auth middleware)."""
    return _viewer(scope.get("user"), scope.get("session"), f"c:{channel_name}")


def ensure_token(request: object, name: str | None = None) -> Viewer:
    """Give this browser a seat token (and remember its chosen name); return the viewer."""
    session = request.session  # type: ignore[attr-defined]
    if not session.get(TOKEN_KEY):
        session[TOKEN_KEY] = secrets.token_urlsafe(24)
    if name and not request.user.is_authenticated:  # type: ignore[attr-defined]
        session[NAME_KEY] = name[:NAME_MAX]
    return viewer_from_request(request)


def seat_of(game: Game, viewer: Viewer) -> str:
    """The side ``viewer`` sits on in ``game`` ("blue"/"red"), or "" for a spectator
    (the core's seat policy, :class:`~dotsboxes.games.seats.Actor`)."""
    seats = Actor(token=viewer.token, user_id=viewer.user_id).seats(game)
    return seats[0].value if seats else ""


def clean_name(raw: str) -> str:
    """A display name: trimmed, inner whitespace collapsed, at most ``NAME_MAX`` characters."""
    return " ".join(str(raw).split())[:NAME_MAX]


def socket_language(scope: dict) -> str:
    """The language a socket's pushes are rendered in: the one its page was rendered in.

    The page names it in the socket's address (``?lang=``: what the site's language
    middleware chose for that page); without it (an old page, another client), the
    browser's language cookie, else its ``Accept-Language``, else the site's default.
    Only a language the site speaks is ever returned."""
    supported = dict(settings.LANGUAGES)
    asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [""])[0]
    if asked in supported:
        return asked
    headers = {
        k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())
    }
    cookie = SimpleCookie()
    with contextlib.suppress(CookieError):
        cookie.load(headers.get("cookie", ""))
    chosen = cookie.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen is not None and chosen.value in supported:
        return chosen.value
    for code, _quality in parse_accept_lang_header(headers.get("accept-language", "")):
        with contextlib.suppress(LookupError):
            return get_supported_language_variant(code)
    return settings.LANGUAGE_CODE
