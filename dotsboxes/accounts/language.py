"""The language switcher: Django's ``set_language`` plus the signed-in player's profile.

Anyone's choice is kept in the language cookie (Django's ``set_language``).  A
signed-in player's is also saved on their ``Profile`` and copied into the
session, so it follows them to any browser they sign in from.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

SESSION_KEY = "language"


def _supported(code: str | None) -> str | None:
    if code and code in dict(settings.LANGUAGES) and translation.check_for_language(code):
        return code
    return None


@require_POST
def switch_language(request: HttpRequest) -> HttpResponse:
    """POST ``language`` and ``next``: the page ``next`` comes back in that language."""
    from .models import Profile

    response = set_language(request)
    code = _supported(request.POST.get("language"))
    if code and request.user.is_authenticated:
        Profile.objects.update_or_create(user=request.user, defaults={"language": code})
        request.session[SESSION_KEY] = code
    return response


@receiver(user_logged_in, dispatch_uid="accounts.saved_language_on_sign_in")
def use_saved_language_on_sign_in(sender, request: HttpRequest | None, user, **kwargs) -> None:
    from .models import Profile

    if request is None or not hasattr(request, "session"):
        return
    code = _supported(Profile.objects.filter(user=user).values_list("language", flat=True).first())
    if code:
        request.session[SESSION_KEY] = code
