"""The notifications page: your turn, notices, and the email setting."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from dotsboxes import clock

from . import services
from .models import Notification, Preferences


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = Preferences
        fields = ["email"]


@login_required
@require_http_methods(["GET", "POST"])
def notifications(request: HttpRequest) -> HttpResponse:
    prefs, _created = Preferences.objects.get_or_create(user=request.user)
    form = PreferencesForm(request.POST or None, instance=prefs)
    if request.method == "POST" and form.is_valid():
        form.save()
        return redirect("notifications:list")
    notices = list(request.user.notifications.select_related("game")[:50])
    context = {
        "notices": notices,
        "turns": services.your_turn(request.user.pk),
        "form": form,
        "has_email": bool(request.user.email),
        "now": clock.now(),
    }
    return render(request, "notifications/list.html", context)


@login_required
@require_POST
def mark_read(request: HttpRequest) -> HttpResponse:
    Notification.objects.filter(user=request.user, read_at__isnull=True).update(read_at=clock.now())
    return redirect("notifications:list")
