"""Site-wide pages: the home page and a health check."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from dotsboxes import clock
from dotsboxes.notifications import services as notifications


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    context = {}
    if request.user.is_authenticated:
        context = {"turns": notifications.your_turn(request.user.pk), "now": clock.now()}
    return render(request, "pages/home.html", context)


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """For load balancers: 200 when the database answers."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})
