"""Commands and checks: block and unblock, mute and lift, fair-play decisions.

The checks (``refusal_between``, ``blocked_ids``, ``chat_refusal``,
``rated_refusal``) are what rooms, tournaments and the bot challenges call;
each answers with a whole sentence to show, or nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from .models import Block, ChatMute, FairPlayDecision, FairPlayMark

MUTE_DAYS_MAX = 365


class ModerationError(ValueError):
    """A refused moderation command; the message is a sentence to show."""


# -- blocks ----------------------------------------------------------------------------


def block_create(*, blocker: object, blocked: object) -> Block:
    """``blocker`` blocks ``blocked`` (blocking twice keeps the first block)."""
    if blocker.pk == blocked.pk:
        raise ModerationError(_("You cannot block yourself."))
    if getattr(blocked, "is_staff", False):
        raise ModerationError(_("Staff accounts cannot be blocked: report a problem instead."))
    try:
        with transaction.atomic():
            block, _created = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
    except IntegrityError:  # two requests at once: the other one made it
        block = Block.objects.get(blocker=blocker, blocked=blocked)
    return block


def block_delete(*, blocker: object, blocked: object) -> bool:
    """Lift a block; ``False`` if there was none."""
    deleted, _rows = Block.objects.filter(blocker=blocker, blocked=blocked).delete()
    return bool(deleted)


def blocked_ids(user_id: int | None) -> set[int]:
    """Everyone ``user_id`` blocked (whose chat they do not see)."""
    if not user_id:
        return set()
    return set(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def apart_ids(user_id: int | None) -> set[int]:
    """Everyone with a block between them and ``user_id``, either way: they do not
    meet in rooms, so neither sees the other's open rooms in the lobby."""
    if not user_id:
        return set()
    pairs = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list(
        "blocker_id", "blocked_id"
    )
    return {a if b == user_id else b for a, b in pairs}


def refusal_between(user_id: int | None, others: list[int | None]) -> str:
    """Why ``user_id`` may not sit down with (or challenge) any of ``others``: ""
    when nothing stands between them.  A blocked player is told only that the other
    player does not accept games from them, not more."""
    others = [o for o in others if o and o != user_id]
    if not user_id or not others:
        return ""
    blocks = Block.objects.filter(
        Q(blocker_id=user_id, blocked_id__in=others) | Q(blocked_id=user_id, blocker_id__in=others)
    ).values_list("blocker_id", flat=True)
    found = set(blocks)
    if not found:
        return ""
    if user_id in found:
        return _("You blocked this player: unblock them on their profile to play them.")
    return _("This player does not accept games with you.")


# -- chat mutes -------------------------------------------------------------------------


def active_mute(user_id: int | None) -> ChatMute | None:
    """The mute that ends last among those still running, if any."""
    if not user_id:
        return None
    return (
        ChatMute.objects.filter(user_id=user_id, until__gt=timezone.now())
        .order_by("-until")
        .first()
    )


def chat_refusal(user_id: int | None) -> str:
    """A muted player's chat is refused with this sentence (until when); else ""."""
    mute = active_mute(user_id)
    if mute is None:
        return ""
    until = date_format(timezone.localtime(mute.until), "DATETIME_FORMAT")
    return _("Staff have muted your chat until %(until)s.") % {"until": until}


def mute_create(*, user: object, by: object, hours: float, reason: str) -> ChatMute:
    """Staff mute ``user``'s chat for ``hours`` (up to a year), with the reason kept."""
    reason = " ".join(str(reason).split())
    if not reason:
        raise ModerationError(_("Say why the chat is muted."))
    if not 0 < hours <= MUTE_DAYS_MAX * 24:
        raise ModerationError(_("A mute lasts from an hour to a year."))
    running = active_mute(user.pk)
    if running is not None:  # a repeated post (or two staff at once) must not stack mutes
        raise ModerationError(
            _("This chat is already muted until %(until)s: lift that mute to set another.")
            % {"until": until_text(running.until)}
        )
    return ChatMute.objects.create(
        user=user, by=by, reason=reason, until=timezone.now() + timedelta(hours=hours)
    )


def mute_lift(*, user: object, by: object) -> int:
    """End every running mute of ``user`` now; how many there were.  The rows stay
    (with their reasons), only their end moves to now."""
    now = timezone.now()
    return ChatMute.objects.filter(user=user, until__gt=now).update(until=now)


# -- fair play ---------------------------------------------------------------------------


def is_marked(user_id: int | None) -> bool:
    return bool(user_id) and FairPlayMark.objects.filter(user_id=user_id).exists()


def rated_refusal(user_id: int | None) -> str:
    """A marked account plays no rated games: the sentence to show; else ""."""
    if is_marked(user_id):
        return _(
            "Your account is marked for a fair-play violation: you can play unrated games only."
        )
    return ""


def decision_record(
    *, user: object, by: object, action: str, reason: str, details: dict | None = None
) -> FairPlayDecision:
    """Log a staff decision and apply what it means for the mark (void is applied by
    the caller, which owns the ratings: ``reports.fairplay``)."""
    reason = " ".join(str(reason).split())
    if not reason:
        raise ModerationError(_("Say why: every decision is kept with its reason."))
    if action not in FairPlayDecision.Action.values:
        raise ModerationError(_("Choose what to do."))
    with transaction.atomic():
        marked = FairPlayMark.objects.select_for_update().filter(user=user).first()
        if action == FairPlayDecision.Action.MARK and marked:
            raise ModerationError(_("This account is already marked."))
        if action == FairPlayDecision.Action.UNMARK and not marked:
            raise ModerationError(_("This account is not marked."))
        decision = FairPlayDecision.objects.create(
            user=user, by=by, action=action, reason=reason, details=details or {}
        )
        if action == FairPlayDecision.Action.MARK:
            FairPlayMark.objects.create(user=user, decision=decision)
        elif action == FairPlayDecision.Action.UNMARK:
            marked.delete()
    return decision


def latest_warning(user_id: int) -> FairPlayDecision | None:
    return (
        FairPlayDecision.objects.filter(user_id=user_id, action=FairPlayDecision.Action.WARN)
        .order_by("-created_at")
        .first()
    )


def user_named(username: str) -> object | None:
    return get_user_model().objects.filter(username=username, is_active=True).first()


def until_text(when: datetime) -> str:
    return date_format(timezone.localtime(when), "DATETIME_FORMAT")
