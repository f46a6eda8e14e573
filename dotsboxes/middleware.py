"""Refuse requests the site cannot read, before any view or error page tries to.

A form body in a charset Django cannot decode (``charset=utf-16`` on a
urlencoded form, an unknown codec, a broken multipart body) raises while the
CSRF check reads ``request.POST``; Django's error views then read it again,
fail the same way, and the error escaped the handler (a 500, and under
``runserver`` with DEBUG a pooled database connection that was never given
back).  A NUL byte anywhere (path, query, form) is refused here too: no page
of the site accepts one, and PostgreSQL cannot store it in a text column.
"""

from __future__ import annotations

import logging

from django.core.exceptions import BadRequest, SuspiciousOperation
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.http.multipartparser import MultiPartParserError
from django.utils import translation
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

#: What reading a hostile body can raise, besides Django's own 400s.
UNREADABLE = (BadRequest, SuspiciousOperation, MultiPartParserError, UnicodeError, LookupError)


def _has_nul(data: object) -> bool:
    return any("\x00" in key or any("\x00" in v for v in values) for key, values in data.lists())


def _refuse(message: str) -> HttpResponse:
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


class RejectUnreadableRequests:
    """400 with a plain message for an undecodable body or a NUL byte; the view never runs."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # This runs before LocaleMiddleware, so the thread still has the language of
        # whatever request it served last: say a refusal in this reader's language
        # (cookie, else Accept-Language; a signed-in player's saved choice needs the
        # session, which is not read yet).
        with translation.override(translation.get_language_from_request(request)):
            refusal = self._refusal(request)
        return self.get_response(request) if refusal is None else refusal

    def _refusal(self, request: HttpRequest) -> HttpResponse | None:
        if "\x00" in request.path or _has_nul(request.GET):
            return _refuse(_("The address contains a character that is not allowed (NUL)."))
        if request.method == "POST":
            try:
                post = request.POST
                request.FILES  # noqa: B018 (parsing the body is the point)
            except UNREADABLE as exc:
                # Error pages read POST again: make them find it empty instead of failing.
                request._mark_post_parse_error()
                logger.info("unreadable request body refused: %s", exc)
                return _refuse(
                    _(
                        "The form could not be read: send it as UTF-8"
                        " (application/x-www-form-urlencoded or multipart/form-data)."
                    )
                )
            if _has_nul(post):
                return _refuse(_("The form contains a character that is not allowed (NUL)."))
        return None
