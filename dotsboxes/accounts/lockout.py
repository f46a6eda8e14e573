"""What a browser sees once django-axes has locked sign-ins out (too many failures).

The same page and words whether or not the name belongs to an account: a
lock-out must not tell an attacker which names exist.  Staff see and lift
lock-outs in the admin (Axes: Access attempts; delete an entry to lift it).
"""

from __future__ import annotations

import math

from axes.helpers import get_cool_off
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext

from .forms import SigninForm


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """The sign-in page with the wait, status 429 (axes's ``AXES_LOCKOUT_CALLABLE``)."""
    cool_off = get_cool_off(request)
    minutes = max(1, math.ceil(cool_off.total_seconds() / 60)) if cool_off else 15
    message = ngettext(
        "Too many failed sign-ins for this name or from this network. "
        "Wait %(count)d minute after your last try, then sign in again.",
        "Too many failed sign-ins for this name or from this network. "
        "Wait %(count)d minutes after your last try, then sign in again.",
        minutes,
    ) % {"count": minutes}
    form = SigninForm(request)  # empty: the password is not sent back
    context = {"form": form, "lockout": message}
    response = render(request, "accounts/login.html", context, status=429)
    response["Retry-After"] = str(minutes * 60)
    return response
