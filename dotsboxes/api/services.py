"""Bot commands: turning an account into a bot, and challenges that open ordinary rooms.

Playing is not here: the API's move, resign and draw endpoints call the rooms'
own commands (:mod:`dotsboxes.rooms.services`) with the bot as the viewer, so
a bot's edge goes through exactly the checks and pushes a person's does.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from dotsboxes.games.models import Game
from dotsboxes.moderation import services as moderation
from dotsboxes.rooms import services as rooms
from dotsboxes.rooms.errors import Conflict, Forbidden, NotFound, RoomError
from dotsboxes.rooms.identity import NAME_MAX, Viewer
from dotsboxes.rooms.models import Room

from . import marks, wake
from .models import BotAccount, Challenge

MAX_PENDING = 10
SIDES = ("blue", "red", "random")


def is_bot(user: AbstractBaseUser | int | None) -> bool:
    if user is None:
        return False
    user_id = user if isinstance(user, int) else user.pk
    return BotAccount.objects.filter(user_id=user_id).exists()


def viewer_of(user: AbstractBaseUser) -> Viewer:
    """The rooms' idea of a signed-in player, for a user acting through the API."""
    return Viewer(user.pk, "", user.get_username()[:NAME_MAX], f"u:{user.pk}")


def bot_account_create(*, user: AbstractBaseUser) -> BotAccount:
    """Make ``user`` a bot.  Only a fresh account: a bot's record must be a bot's own."""
    with transaction.atomic():
        if BotAccount.objects.filter(user=user).exists():
            raise Conflict(_("This account is already a bot account."))
        played = Game.objects.filter(Q(blue_user=user) | Q(red_user=user)).exists()
        if played:
            raise Conflict(
                _("Only an account that has not played any game can become a bot account.")
            )
        bot = BotAccount.objects.create(user=user)
        # Forgotten now for this request's next page, and after commit for a page
        # another request rendered (and cached) in between.
        marks.forget()
        transaction.on_commit(marks.forget)
        return bot


def challenge_create(
    *,
    challenger: AbstractBaseUser,
    target: AbstractBaseUser,
    width: int = 5,
    height: int = 5,
    timer_seconds: int = 0,
    rated: bool = False,
    side: str = "random",
) -> Challenge:
    """Invite a bot to a game.  Against a person a bot's game is rated only when that
    person asked for it, so only the challenger decides ``rated``; people play people
    in the rooms, so the target must be a bot."""
    if challenger.pk == target.pk:
        raise RoomError(_("You cannot challenge yourself."))
    if not is_bot(target):
        raise RoomError(_("Only bot accounts can be challenged; play people in the rooms."))
    if refusal := moderation.refusal_between(challenger.pk, [target.pk]):
        raise Forbidden(refusal)
    if rated and (refusal := moderation.rated_refusal(challenger.pk)):
        raise Forbidden(refusal)
    try:
        width, height, timer_seconds = int(width), int(height), int(timer_seconds)
    except (TypeError, ValueError):
        raise RoomError(_("Width, height and timer must be whole numbers.")) from None
    if not (1 <= width <= 9 and 1 <= height <= 9):
        raise RoomError(_("Choose a width and a height from 1 to 9 boxes."))
    if timer_seconds not in Room.Timer.values:
        raise RoomError(_("Choose no timer, 30 or 60 seconds, or 1, 2, 3, 5 or 7 days a move."))
    if side not in SIDES:
        raise RoomError(_("Choose Blue, Red or random for your side."))
    with transaction.atomic():
        pending = Challenge.objects.filter(
            challenger=challenger,
            status=Challenge.Status.PENDING,
            created_at__gt=Challenge.open_since(),
        )
        if pending.count() >= MAX_PENDING:
            raise Conflict(
                _("You have %(n)d challenges waiting for an answer: cancel one first.")
                % {"n": MAX_PENDING}
            )
        wake.users_after_commit(challenger.pk, target.pk)
        return Challenge.objects.create(
            challenger=challenger,
            target=target,
            width=width,
            height=height,
            timer_seconds=timer_seconds,
            rated=bool(rated),
            side=side,
        )


def _locked_challenge(challenge_id: int | str) -> Challenge:
    try:
        pk = int(challenge_id)
    except (TypeError, ValueError):
        pk = 0
    found = Challenge.objects.select_for_update().filter(pk=pk).first()
    if found is None:
        raise NotFound(_("There is no such challenge."))
    return found


def _pending(challenge: Challenge, *, or_expired: bool = False) -> None:
    if challenge.expired and not or_expired:
        raise Conflict(_("This challenge has expired: it was not answered in time."))
    if challenge.status != Challenge.Status.PENDING:
        raise Conflict(
            _("This challenge was already answered (%(status)s).")
            % {"status": challenge.get_status_display()}
        )


def challenge_accept(*, challenge_id: int | str, user: AbstractBaseUser) -> Room:
    """The challenged bot accepts: one room opens with both players seated, the
    challenger as its host (the rooms' own create and join)."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id)
        if challenge.target_id != user.pk:
            raise Forbidden(_("Only the challenged player can accept this challenge."))
        _pending(challenge)
        room = rooms.room_create(
            viewer=viewer_of(challenge.challenger),
            width=challenge.width,
            height=challenge.height,
            host_side=challenge.side,
            timer_seconds=challenge.timer_seconds,
            is_public=True,
            rated=challenge.rated,
        )
        room, _side = rooms.room_join(public_id=room.game.public_id, viewer=viewer_of(user))
        challenge.status = Challenge.Status.ACCEPTED
        challenge.game = room.game
        challenge.answered_at = timezone.now()
        challenge.save()
    return room


def challenge_decline(*, challenge_id: int | str, user: AbstractBaseUser) -> Challenge:
    """The challenged player declines, or the challenger takes the challenge back."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id)
        if user.pk not in (challenge.target_id, challenge.challenger_id):
            raise Forbidden(_("This challenge is between other players."))
        _pending(challenge, or_expired=True)
        mine = user.pk == challenge.challenger_id
        challenge.status = Challenge.Status.CANCELLED if mine else Challenge.Status.DECLINED
        wake.users_after_commit(challenge.challenger_id, challenge.target_id)
        challenge.answered_at = timezone.now()
        challenge.save()
    return challenge
