"""The notifications page: your turn, notices, and the email setting."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from dotsboxes import clock
from dotsboxes.accounts import addresses
from dotsboxes.rooms import vacation
from dotsboxes.rooms.models import VacationChoice

from . import services
from .models import Notification, Preferences


class PreferencesForm(forms.ModelForm):
    """The email setting; the address is kept, and confirmed, in the account settings."""

    class Meta:
        model = Preferences
        fields = ["email"]


class VacationForm(forms.ModelForm):
    class Meta:
        model = VacationChoice
        fields = ["auto"]


def _vacation_form(request: HttpRequest, data: dict | None = None) -> VacationForm:
    choice = VacationChoice.objects.filter(user=request.user).first()
    return VacationForm(data, instance=choice or VacationChoice(user=request.user))


@login_required
@require_http_methods(["GET", "POST"])
def notifications(request: HttpRequest) -> HttpResponse:
    # Unsaved until the player changes a setting: a visit, or a refused post, stores nothing.
    prefs = Preferences.objects.filter(user=request.user).first() or Preferences(user=request.user)
    form = PreferencesForm(request.POST or None, instance=prefs)
    if request.method == "POST" and form.is_valid():
        form.save()
        return redirect("notifications:list")
    notices = list(request.user.notifications.select_related("game")[:50])
    context = {
        "notices": notices,
        "turns": services.your_turn(request.user.pk),
        "form": form,
        "email_verified": addresses.is_verified(request.user),
        "now": clock.now(),
        "vacation_form": _vacation_form(request),
        "vacation_left": vacation.days_left(request.user.pk),
        "vacation_per_year": vacation.days_per_year(),
    }
    status = 400 if form.errors else 200
    return render(request, "notifications/list.html", context, status=status)


@require_GET
def header(request: HttpRequest) -> HttpResponse:
    """The header's counts alone, for the page's poll (the context processor fills them).

    Signed out (the session ended in another tab): nothing, and the poll stops.
    """
    if not request.user.is_authenticated:
        return HttpResponse(status=286)  # htmx: stop polling
    return render(request, "notifications/_header.html")


@login_required
@require_POST
def mark_read(request: HttpRequest) -> HttpResponse:
    Notification.objects.filter(user=request.user, read_at__isnull=True).update(read_at=clock.now())
    return redirect("notifications:list")


@login_required
@require_POST
def vacation_choice(request: HttpRequest) -> HttpResponse:
    """Switch the automatic use of vacation days on or off (an unticked box is off)."""
    form = _vacation_form(request, request.POST)
    if form.is_valid():  # one checkbox: always valid
        form.save()
    return redirect("notifications:list")
