"""Sign up, sign in and out, a player's profile, the rating list."""

from __future__ import annotations

from django.contrib.auth import get_user_model, login
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from dotsboxes import throttle
from dotsboxes.games.models import Game

from .forms import SignupForm
from .models import Rating, RatingChange

GAMES_PER_PAGE = 20
PLAYERS_PER_PAGE = 50


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


def game_url(game: Game) -> str | None:
    """The game's page, else its replay, or ``None`` while no app shows it yet."""
    try:
        return game.get_absolute_url()
    except NoReverseMatch:
        pass
    try:
        return reverse("games:replay", args=[game.public_id])
    except NoReverseMatch:
        return None


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:profile", username=request.user.username)
    form = SignupForm(request.POST or None)
    keys = throttle.request_keys(request)
    # Only accounts made count (a mistyped password is no flood), but a flood is refused first.
    wait = throttle.hit("signup", *keys, count=False) if request.method == "POST" else 0
    if wait:
        form.is_valid()  # keep what was typed on the page
        form.add_error(None, throttle.message(wait))
    elif request.method == "POST" and form.is_valid():
        throttle.hit("signup", *keys)
        user = form.save()
        Rating.objects.create(user=user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(_safe_next(request) or reverse("accounts:profile", args=[user.username]))
    context = {"form": form, "next": _safe_next(request)}
    response = render(request, "accounts/signup.html", context)
    return throttle.retry_after(response, wait) if wait else response


def _outcome_for(game: Game, user_id: int) -> str:
    if game.result in (Game.Result.TIE, Game.Result.DRAW):
        return game.get_result_display()
    blue = game.blue_user_id == user_id
    won = (game.result == Game.Result.BLUE) == blue
    return gettext("Won") if won else gettext("Lost")


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(get_user_model(), username=username, is_active=True)
    rating = Rating.objects.filter(user=user).first() or Rating(user=user)
    games = (
        Game.objects.filter(Q(blue_user=user) | Q(red_user=user), status=Game.Status.FINISHED)
        .select_related("blue_user", "red_user")
        .order_by("-finished_at", "-created_at")
    )
    page = Paginator(games, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    changes = {
        c.game_id: c for c in RatingChange.objects.filter(user=user, game__in=[g.pk for g in page])
    }
    rows = []
    for game in page:
        blue = game.blue_user_id == user.pk
        rows.append(
            {
                "game": game,
                "url": game_url(game),
                "side": gettext("Blue") if blue else gettext("Red"),
                "side_code": "blue" if blue else "red",
                "opponent": game.red_label if blue else game.blue_label,
                "outcome": _outcome_for(game, user.pk),
                "change": changes.get(game.pk),
            }
        )
    context = {"player": user, "rating": rating, "page": page, "rows": rows}
    return render(request, "accounts/profile.html", context)


@require_GET
def ratings(request: HttpRequest) -> HttpResponse:
    ranked = Rating.objects.filter(games__gt=0, user__is_active=True).select_related("user")
    page = Paginator(ranked.order_by("-rating", "user__username"), PLAYERS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(request, "accounts/ratings.html", {"page": page})
