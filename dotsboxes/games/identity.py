"""Who is at the keyboard: a random token in the session names the browser.

Anonymous players own their seats through this token (``Game.blue_token`` /
``red_token``); a signed-in user also owns seats through ``blue_user`` /
``red_user``.  Other apps (rooms) build their :class:`Actor` the same way.
"""

from __future__ import annotations

import secrets

from django.http import HttpRequest

from .seats import Actor

SESSION_KEY = "player_token"


def browser_token(request: HttpRequest, *, create: bool = False) -> str:
    """This browser's token ('' if it has none and ``create`` is false)."""
    token = request.session.get(SESSION_KEY, "")
    if not token and create:
        token = secrets.token_urlsafe(24)
        request.session[SESSION_KEY] = token
    return token


def actor_for(request: HttpRequest, *, create: bool = False) -> Actor:
    """The :class:`Actor` for this request (browser token plus signed-in user)."""
    user = getattr(request, "user", None)
    user_id = user.pk if user is not None and user.is_authenticated else None
    return Actor(token=browser_token(request, create=create), user_id=user_id)
