"""A player's own moderation pages: block and unblock from a profile, the list of
players they blocked.  Plain forms (CSRF, POST) that work without JavaScript."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from dotsboxes import throttle

from . import services
from .models import Block


def _back(request: HttpRequest, fallback: str) -> HttpResponse:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(fallback)


def _player(username: str) -> object:
    return get_object_or_404(get_user_model(), username=username, is_active=True)


@require_POST
@login_required
@throttle.limit("block")
def block(request: HttpRequest, username: str) -> HttpResponse:
    other = _player(username)
    try:
        services.block_create(blocker=request.user, blocked=other)
    except services.ModerationError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _(
                "You blocked %(name)s: they cannot challenge you or sit in your rooms, "
                "and you no longer see their chat."
            )
            % {"name": other.username},
        )
    return _back(request, reverse("accounts:profile", args=[other.username]))


@require_POST
@login_required
@throttle.limit("block")
def unblock(request: HttpRequest, username: str) -> HttpResponse:
    other = _player(username)
    if services.block_delete(blocker=request.user, blocked=other):
        messages.success(request, _("You unblocked %(name)s.") % {"name": other.username})
    else:
        messages.info(request, _("You had not blocked %(name)s.") % {"name": other.username})
    return _back(request, reverse("accounts:profile", args=[other.username]))


@require_GET
@login_required
def blocked(request: HttpRequest) -> HttpResponse:
    blocks = Block.objects.filter(blocker=request.user).select_related("blocked")
    return render(request, "moderation/blocked.html", {"blocks": blocks})
