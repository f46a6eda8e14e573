"""Download my data and close my account: both from the account settings page."""

from __future__ import annotations

from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods, require_POST

from dotsboxes import clock, throttle
from dotsboxes.accounts.forms import PasswordCheckedForm

from .closing import account_close
from .export import archive


class CloseForm(PasswordCheckedForm):
    """Closing asks for the password: a borrowed session alone cannot close the account."""


@login_required
@require_POST
def export(request: HttpRequest) -> HttpResponse:
    wait = throttle.hit("data_export", *throttle.request_keys(request))
    if wait:
        return throttle.too_many(request, wait)
    response = HttpResponse(archive(request.user), content_type="application/zip")
    name = f"dotsboxes-{request.user.username}-{clock.now():%Y-%m-%d}.zip"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def close(request: HttpRequest) -> HttpResponse:
    form = CloseForm(request.user, request.POST or None)
    status = 200
    if request.method == "POST":
        # Every try counts: the password is checked here.
        wait = throttle.hit("account_close", *throttle.request_keys(request))
        if wait:
            form.is_valid()
            form.add_error(None, throttle.message(wait))
            status = 429
        elif form.is_valid():
            account_close(user=request.user)
            logout(request)
            return render(request, "privacy/closed.html")
        else:
            status = 400
    return render(request, "privacy/close.html", {"form": form}, status=status)
