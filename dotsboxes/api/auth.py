"""The API's door: a bearer token, a rate limit, JSON in and out, refusals as JSON.

Token-authenticated views are exempt from CSRF, and only those: a browser never
adds an ``Authorization`` header by itself, so a forged cross-site request carries
no token, and these views ignore the session cookie entirely (a signed-in browser
gets 401 here, not its account).
"""

from __future__ import annotations

import functools
import json
import logging
import math
import re
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from dotsboxes import throttle
from dotsboxes.games.errors import GameError, IllegalEdgeError

from .tokens import user_for_header

ILLEGAL_STATUS = 422  # a well-formed move whose edge cannot be drawn

logger = logging.getLogger(__name__)


def error(message: str, status: int, **extra: object) -> JsonResponse:
    response = JsonResponse({"error": message, **extra}, status=status)
    if status == 401:
        response["WWW-Authenticate"] = 'Bearer realm="dotsboxes"'
    return response


def server_error() -> JsonResponse:
    """500 as JSON, like every other answer of the API (the log has the traceback)."""
    return error(_("The server failed to answer; nothing was changed. Try again later."), 500)


def refused(exc: GameError, **extra: object) -> JsonResponse:
    """A refusal of the game core or the rooms, with its own status."""
    status = ILLEGAL_STATUS if isinstance(exc, IllegalEdgeError) else exc.status
    return error(str(exc), status, **extra)


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e400: int() of it raises OverflowError
        raise ValueError(text)
    return number


def _not_json(name: str) -> float:
    raise ValueError(name)  # NaN and Infinity: Python reads them, JSON has none


class Body(dict):
    """A request's fields; ``form`` is True for a form body, whose values are all text."""

    form = False


def _form(fields: dict) -> Body:
    data = Body(fields)
    data.form = True
    return data


def body(request: HttpRequest) -> Body:
    """The request's JSON object (or form fields); raises GameError (400) otherwise."""
    if request.method != "POST":
        return Body()
    if request.content_type == "multipart/form-data":
        # Read as a form: the middleware has parsed its stream, so request.body would raise.
        return _form(request.POST.dict())
    try:
        raw = request.body
    except RequestDataTooBig:
        # Django's own answer to it is an HTML page, and a traceback in the log.
        raise GameError(
            _("The request body is too large: at most %(n)d bytes.")
            % {"n": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
        ) from None
    if request.content_type == "application/json" or raw[:1] in (b"{", b"["):
        try:
            data = json.loads(raw or b"{}", parse_float=_finite, parse_constant=_not_json)
        except (ValueError, UnicodeError, RecursionError):
            # RecursionError: nested deeper than the parser recurses ("[[[[...").
            raise GameError(_("The request body is not valid JSON.")) from None
        if not isinstance(data, dict):
            raise GameError(_("The request body must be a JSON object."))
        return Body(data)
    return _form(request.POST.dict())


_WHOLE = re.compile(r"^[+-]?\d{1,9}$")
_TRUE, _FALSE = ("true", "1", "on", "yes"), ("false", "0", "off", "no", "")


def whole_number(data: Body, name: str, default: int) -> int:
    """Field ``name`` as a whole number: a JSON integer (not "5", 5.5 or true), or a form
    field's digits; a 400 naming the field otherwise."""
    value = data.get(name, default)
    if data.form and isinstance(value, str) and _WHOLE.match(value.strip()):
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise GameError(_("%(field)s must be a whole number, such as 5.") % {"field": name})


def true_or_false(data: Body, name: str, default: bool) -> bool:
    """Field ``name`` as a boolean: JSON true or false (not "yes" or []), or a form
    checkbox's text; a 400 naming the field otherwise."""
    value = data.get(name, default)
    if isinstance(value, bool):
        return value
    if data.form and isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
        return value.strip().lower() in _TRUE
    raise GameError(_("%(field)s must be true or false.") % {"field": name})


def text(data: Body, name: str, default: str) -> str:
    """Field ``name`` as text; a 400 naming the field for a number, list or object."""
    value = data.get(name, default)
    if isinstance(value, str):
        return value
    raise GameError(_("%(field)s must be text.") % {"field": name})


def token_view(*, scope: str = "api", methods: tuple[str, ...] = ("GET",)) -> Callable:
    """Decorate an API view ``view(request, user, ...)``: 405 for another method, 401
    without a valid token, 429 over ``scope``'s rate."""

    def decorate(view: Callable) -> Callable:
        @csrf_exempt
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs):
            if request.method not in methods:
                response = error(_("Method not allowed."), 405)
                response["Allow"] = ", ".join(methods)
                return response
            user = user_for_header(request.headers.get("Authorization", ""))
            if user is None:
                return error(_("A valid API token is needed: Authorization: Bearer <token>."), 401)
            keys = [f"user:{user.pk}", f"addr:{request.META.get('REMOTE_ADDR', '')}"]
            wait = throttle.hit(scope, *keys)
            if wait:
                response = error(throttle.message(wait), 429, retry_after=wait)
                response["Retry-After"] = str(wait)
                return response
            try:
                return view(request, user, *args, **kwargs)
            except GameError as exc:
                return refused(exc)
            except Exception:  # a bot reads JSON: never Django's HTML error page
                logger.exception("bot API %s %s failed", request.method, request.path)
                return server_error()

        return wrapped

    return decorate
