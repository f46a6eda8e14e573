"""Who may see the staff pages: staff only (a 404 for everyone else signed in)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext


def staff_required(view: Callable) -> Callable:
    """Signed-out visitors go to the sign-in page; signed-in non-staff see a 404."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.is_staff:
            raise Http404(gettext("No such page."))
        return view(request, *args, **kwargs)

    return wrapped
