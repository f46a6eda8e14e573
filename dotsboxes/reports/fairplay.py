"""Fair-play evidence for staff: the flagged accounts, one player's figures game by game,
and the decisions (warn, mark, lift a mark, void the ratings gained, clear), each kept
with who made it and why.  Here beside the report queue because voiding touches the
ratings (accounts), which the moderation app below cannot reach.

Nothing here is shown to players: a flag is evidence for staff to review.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from dotsboxes import throttle
from dotsboxes.accounts.models import Rating, RatingChange
from dotsboxes.moderation import evidence, fairplay
from dotsboxes.moderation import services as moderation
from dotsboxes.moderation.models import FairPlayDecision, FairPlayMark, GameFigures
from dotsboxes.text import reject_control_characters

from .access import staff_required


class DecisionForm(forms.Form):
    action = forms.ChoiceField(
        label=_("Decision"), choices=FairPlayDecision.Action.choices, widget=forms.RadioSelect
    )
    reason = forms.CharField(
        label=_("Why (kept in the log)"),
        max_length=2000,
        validators=[reject_control_characters],
        widget=forms.Textarea(attrs={"rows": 3}),
    )


@dataclass
class Standing:
    """A player's figures and how they stand in their rating band."""

    user: object
    rating: float
    figures: fairplay.PlayerFigures
    assessment: fairplay.Assessment
    marked: bool = False


def _ratings(user_ids: list[int]) -> dict[int, float]:
    rows = Rating.objects.filter(user_id__in=user_ids).values_list("user_id", "rating")
    return dict(rows)


def standings(only: list[int] | None = None) -> list[Standing]:
    """Everyone with figures (or only ``only``), each assessed against the others."""
    evidence.fill()
    figures = evidence.everyone()
    ratings = _ratings(list(figures))
    compared = {
        uid: (ratings.get(uid, 1500.0), f.rate)
        for uid, f in figures.items()
        if f.rate is not None and f.choices >= fairplay.MIN_CHOICES
    }
    users = get_user_model().objects.in_bulk(only if only is not None else list(figures))
    marked = set(FairPlayMark.objects.filter(user_id__in=users).values_list("user_id", flat=True))
    out = []
    for uid, user in users.items():
        mine = figures.get(uid) or fairplay.combine([])
        rating = ratings.get(uid, 1500.0)
        others = [v for other, v in compared.items() if other != uid]
        verdict = fairplay.assess(mine, fairplay.peers_of(rating, others))
        out.append(Standing(user, rating, mine, verdict, uid in marked))
    return out


def standing_of(user: object) -> Standing:
    return standings(only=[user.pk])[0]


@require_GET
@staff_required
def flagged(request: HttpRequest) -> HttpResponse:
    everyone = standings()
    rows = sorted(
        (s for s in everyone if s.assessment.flagged),
        key=lambda s: s.assessment.chance if s.assessment.chance is not None else 1.0,
    )
    context = {
        "rows": rows,
        "players": len(everyone),
        "compared": sum(1 for s in everyone if s.assessment.enough),
        "settings": fairplay,
        "marked": FairPlayMark.objects.select_related("user", "decision__by"),
    }
    return render(request, "reports/fairplay.html", context)


@require_GET
@staff_required
def player(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(get_user_model(), username=username)
    context = {
        "player": user,
        "standing": standing_of(user),
        "games": evidence.recent(user.pk),
        "decisions": FairPlayDecision.objects.filter(user=user).select_related("by"),
        "form": DecisionForm(),
        "settings": fairplay,
    }
    return render(request, "reports/fairplay_player.html", context)


def _void(user: object) -> dict:
    """Take back the rating points ``user`` gained in their recent rated games (those the
    evidence covers) that no earlier decision voided.  The opponents' ratings stay."""
    voided_before = set()
    for details in FairPlayDecision.objects.filter(
        user=user, action=FairPlayDecision.Action.VOID
    ).values_list("details", flat=True):
        voided_before.update((details or {}).get("games", []))
    window = [row.game_id for row in evidence.recent(user.pk)]
    changes = RatingChange.objects.filter(user=user, game_id__in=window).exclude(
        game_id__in=voided_before
    )
    gained = sum(max(0.0, c.rating_after - c.rating_before) for c in changes)
    rating = Rating.objects.select_for_update().filter(user=user).first()
    before = rating.rating if rating else None
    if rating is not None and gained:
        rating.rating = rating.rating - gained
        rating.save(update_fields=["rating", "updated_at"])
    return {
        "games": sorted({c.game_id for c in changes}),
        "points": round(gained, 1),
        "rating_before": before and round(before, 1),
        "rating_after": rating and round(rating.rating, 1),
    }


@require_POST
@staff_required
@throttle.limit("moderation")
def decide(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(get_user_model(), username=username)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Choose a decision and say why."))
        return redirect("reports:fairplay_player", username=username)
    action = form.cleaned_data["action"]
    s = standing_of(user)
    details = {
        "games_counted": s.figures.games,
        "choices": s.figures.choices,
        "matched": s.figures.matched,
        "band_median": s.assessment.median and round(s.assessment.median, 3),
        "reference_miss_rate": s.assessment.reference and round(s.assessment.reference, 3),
        "chance": s.assessment.chance,
        "percentile": s.assessment.percentile and round(s.assessment.percentile, 1),
        "flagged": s.assessment.flagged,
    }
    try:
        with transaction.atomic():
            if action == FairPlayDecision.Action.VOID:
                details["void"] = _void(user)
                details["games"] = details["void"]["games"]
            moderation.decision_record(
                user=user,
                by=request.user,
                action=action,
                reason=form.cleaned_data["reason"],
                details=details,
            )
    except moderation.ModerationError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            gettext("Decision recorded for %(name)s: %(action)s.")
            % {"name": user.username, "action": FairPlayDecision.Action(action).label},
        )
    return redirect("reports:fairplay_player", username=username)


def game_evidence(game: object) -> list[dict]:
    """For a reported game: each signed-in player's figures in it and their standing."""
    if not game.rated:
        return []
    evidence.fill()
    rows = {row.side: row for row in GameFigures.objects.filter(game=game)}
    out = []
    for side in ("blue", "red"):
        user = getattr(game, f"{side}_user", None)
        if user is None:
            continue
        out.append(
            {"side": side, "user": user, "game": rows.get(side), "standing": standing_of(user)}
        )
    return out
