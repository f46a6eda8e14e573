"""A signed-in player's saved language wins over the browser's.

The saved choice (``Profile.language``) is copied into the session when the
player signs in or switches language (``language.py``), so this middleware reads
the session that is loaded anyway and costs no query per request.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from .language import SESSION_KEY


class SavedLanguageMiddleware:
    """Runs after ``LocaleMiddleware`` and overrides its choice with the saved one."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        saved = request.session.get(SESSION_KEY)
        if saved and translation.check_for_language(saved) and saved != request.LANGUAGE_CODE:
            translation.activate(saved)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)
