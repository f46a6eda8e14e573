"""The pages a person uses: become a bot, manage API tokens, challenge a bot.

All are plain forms (POST, CSRF-checked) that also work with htmx; a challenge
waits on its own small page, which reloads itself until the bot answers and
then sends the challenger into the room.
"""

from __future__ import annotations

import functools
from pathlib import Path

import markdown
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from dotsboxes import throttle
from dotsboxes.games.errors import GameError
from dotsboxes.games.models import Game

from . import services, tokens
from .forms import ChallengeForm, TokenForm
from .models import ApiToken, Challenge

NEW_TOKEN_KEY = "api_new_token"
#: The bot API's documentation, one file for the repository and the site.
API_DOC = Path(settings.SITE_DIR) / "docs" / "API.md"


def _profile(user: object) -> str:
    return reverse("accounts:profile", args=[user.get_username()])  # type: ignore[attr-defined]


def _back(request: HttpRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _refused(request: HttpRequest, exc: GameError) -> HttpResponse:
    return render(request, "api/refused.html", {"message": str(exc)}, status=exc.status)


def profile_panel(request: HttpRequest, player: object, form: ChallengeForm | None = None) -> dict:
    """What the profile page shows about bots, for ``player`` seen by ``request.user``."""
    viewer = request.user
    own = viewer.is_authenticated and viewer.pk == player.pk  # type: ignore[attr-defined]
    bot = services.is_bot(player)  # type: ignore[arg-type]
    context: dict = {"player": player, "own": own, "is_bot": bot, "request": request}
    if own and not bot:
        context["can_become_bot"] = (
            not Game.objects.filter(blue_user=player).exists()
            and not Game.objects.filter(red_user=player).exists()
        )
    if own and bot:
        context["tokens"] = ApiToken.objects.filter(user=player, revoked_at=None)
        context["new_token"] = request.session.pop(NEW_TOKEN_KEY, "")
        context["token_form"] = TokenForm()
        context["api_url"] = request.build_absolute_uri("/")[:-1]
    if bot and not own:
        context["challenge_form"] = form or ChallengeForm()
        context["can_rate"] = viewer.is_authenticated and not services.is_bot(viewer)
    return context


@require_POST
@login_required
def become_bot(request: HttpRequest) -> HttpResponse:
    try:
        services.bot_account_create(user=request.user)
    except GameError as exc:
        return _refused(request, exc)
    return _back(request, _profile(request.user))


@require_POST
@login_required
@throttle.limit("api_token")
def token_new(request: HttpRequest) -> HttpResponse:
    if not services.is_bot(request.user):
        return _refused(request, GameError(_no_bot()))
    form = TokenForm(request.POST)
    if not form.is_valid():  # refused, not made nameless: nothing is stored
        return _refused(request, GameError(" ".join(e for es in form.errors.values() for e in es)))
    try:
        _row, token = tokens.token_create(user=request.user, name=form.cleaned_data["name"])
    except GameError as exc:
        return _refused(request, exc)
    # Shown once, on the next profile page; only its digest is stored.
    request.session[NEW_TOKEN_KEY] = token
    return _back(request, _profile(request.user))


def _no_bot() -> str:
    return gettext("Only bot accounts have API tokens: turn this account into a bot first.")


@require_POST
@login_required
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        tokens.token_revoke(user=request.user, token_id=token_id)
    except GameError as exc:
        return _refused(request, exc)
    return _back(request, _profile(request.user))


@require_POST
@login_required
@throttle.limit("room_create")
def challenge_bot(request: HttpRequest, username: str) -> HttpResponse:
    bot = get_object_or_404(get_user_model(), username=username, is_active=True)
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        return _refused(request, GameError(" ".join(e for es in form.errors.values() for e in es)))
    data = form.cleaned_data
    try:
        challenge = services.challenge_create(
            challenger=request.user,
            target=bot,
            width=data["width"],
            height=data["height"],
            timer_seconds=data["timer"],
            rated=data["rated"],
            side=data["side"],
        )
    except GameError as exc:
        return _refused(request, exc)
    return _back(request, reverse("bots:challenge_page", args=[challenge.pk]))


def _own_challenge(request: HttpRequest, challenge_id: int) -> Challenge:
    return get_object_or_404(
        Challenge.objects.select_related("challenger", "target", "game"),
        pk=challenge_id,
        challenger=request.user,
    )


@require_GET
@login_required
def challenge_page(request: HttpRequest, challenge_id: int) -> HttpResponse:
    challenge = _own_challenge(request, challenge_id)
    if challenge.status == Challenge.Status.ACCEPTED and challenge.game is not None:
        return _back(request, challenge.game.get_absolute_url())
    template = "api/challenge.html"
    if request.htmx:
        template += "#waiting"
    return render(request, template, {"challenge": challenge})


@require_POST
@login_required
def challenge_cancel(request: HttpRequest, challenge_id: int) -> HttpResponse:
    challenge = _own_challenge(request, challenge_id)
    try:
        services.challenge_decline(challenge_id=challenge.pk, user=request.user)
    except GameError as exc:
        return _refused(request, exc)
    return _back(request, reverse("bots:challenge_page", args=[challenge.pk]))


@require_GET
def api_docs(request: HttpRequest) -> HttpResponse:
    """The bot API's documentation (docs/API.md), for people on the site."""
    return render(request, "api/docs.html", {"body": mark_safe(_api_docs_html())})


@functools.cache
def _api_docs_html() -> str:
    """docs/API.md as HTML (Python-Markdown: tables, fenced code, heading anchors).

    Our own file, so its HTML is trusted; rendered once per process.
    """
    return markdown.markdown(
        API_DOC.read_text(encoding="utf-8"),
        extensions=["tables", "fenced_code", "toc"],
        output_format="html",
    )
