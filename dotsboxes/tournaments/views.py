"""Tournament pages and actions: POSTs (CSRF-checked, htmx or plain forms); a refusal
answers with its status and a plain message, and changes nothing."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from dotsboxes import throttle
from dotsboxes.games.errors import GameError

from . import services
from .eligibility import may_join
from .forms import CreateTournamentForm
from .models import Tournament
from .presenters import lists, live_context


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    form = CreateTournamentForm() if request.user.is_authenticated else None
    return render(request, "tournaments/list.html", {**lists(), "form": form})


@require_POST
@throttle.limit("tournament_create")
def create(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return _refused(request, None, _sign_in_message(), 403)
    form = CreateTournamentForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.tournament_create(
                user=request.user,
                name=data["name"],
                kind=data["kind"],
                starts_at=form.starts_at(),
                timer_seconds=data["timer"],
                width=data["width"],
                height=data["height"],
                rated=data["rated"],
                duration_minutes=data.get("duration"),
                rounds=data.get("rounds"),
                allow_bots=data["allow_bots"],
            )
        except GameError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect(tournament)
    return render(request, "tournaments/list.html", {**lists(), "form": form}, status=400)


def _sign_in_message() -> str:
    return _("Sign in to create or join a tournament.")


def _page_context(request: HttpRequest, tournament: Tournament) -> dict:
    user = request.user
    entry = tournament.entries.filter(user=user).first() if user.is_authenticated else None
    return {
        **live_context(tournament),
        "entry": entry,
        "join_refusal": may_join(user, tournament) if not (entry and entry.active) else "",
        "is_organiser": user.is_authenticated and user.pk == tournament.created_by_id,
    }


@require_GET
def detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = _page_context(request, tournament)
    template = "tournaments/detail.html"
    if request.htmx:
        template += "#live"
    return render(request, template, context)


def _refused(request: HttpRequest, tournament: Tournament | None, message: str, status: int):
    return render(
        request, "tournaments/refused.html", {"t": tournament, "message": message}, status=status
    )


def _act(request: HttpRequest, tournament_id: int, action) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not request.user.is_authenticated:
        return _refused(request, tournament, _sign_in_message(), 403)
    try:
        action(tournament)
    except GameError as exc:
        return _refused(request, tournament, str(exc), exc.status)
    if request.htmx:
        tournament.refresh_from_db()
        return render(request, "tournaments/detail.html#page", _page_context(request, tournament))
    return redirect(tournament)


@require_POST
def join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda t: services.tournament_join(tournament_id=t.pk, user=request.user),
    )


@require_POST
def leave(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda t: services.tournament_leave(tournament_id=t.pk, user=request.user),
    )


@require_POST
def start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda t: services.tournament_start(tournament_id=t.pk, user=request.user),
    )


@require_POST
def feature(request: HttpRequest, tournament_id: int) -> HttpResponse:
    featured = request.POST.get("featured") == "1"
    return _act(
        request,
        tournament_id,
        lambda t: services.tournament_feature(
            tournament_id=t.pk, user=request.user, featured=featured
        ),
    )
