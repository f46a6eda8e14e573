"""Your turn, notices and their mail.

- :func:`your_turn` lists the online games where a player is to move (the header
  count and the home page list).
- A receiver of the core's change event raises a "your turn" notice when a
  correspondence game passes the move to a signed-in player: one insert, after
  commit, in the request that made the move (cheap, never blocks on mail).
- A receiver of the room clock's ``ticked`` signal does the periodic work
  outside requests: a notice a day before a deadline (6 hours before, at one
  day a move), and the mail.  Mail is
  batched per player: at most one message an hour (``NOTIFY_MAIL_EVERY``),
  listing every notice not yet mailed.  Sending runs in the clock's thread, so
  a slow SMTP server delays the clock's next pass, never a page.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from dotsboxes import clock
from dotsboxes.accounts.models import Profile
from dotsboxes.games.events import game_changed
from dotsboxes.games.models import Game, Side
from dotsboxes.rooms import vacation
from dotsboxes.rooms.models import CORRESPONDENCE_FROM, Room
from dotsboxes.rooms.ticker import ticked

from .models import Notification, Preferences

logger = logging.getLogger(__name__)
WARN_BEFORE = timedelta(days=1)


def mail_every() -> timedelta:
    return timedelta(seconds=float(settings.NOTIFY_MAIL_EVERY))


@dataclass(frozen=True)
class TurnGame:
    """A game where the player is to move, and how long they have (None: no clock)."""

    room: Room
    left: timedelta | None

    @property
    def game(self) -> Game:
        return self.room.game

    @property
    def opponent(self) -> str:
        game, side = self.room.game, self.room.to_move
        return game.red_name if side == Side.BLUE else game.blue_name

    @property
    def opponent_id(self) -> int | None:
        game, side = self.room.game, self.room.to_move
        return game.red_user_id if side == Side.BLUE else game.blue_user_id


def _to_move(user_id: int) -> Q:
    return Q(to_move=Side.BLUE, game__blue_user_id=user_id) | Q(
        to_move=Side.RED, game__red_user_id=user_id
    )


def _your_turn_rooms(user_id: int):
    rooms = Room.objects.filter(_to_move(user_id), game__status=Game.Status.ACTIVE)
    # Both seats taken: a host waiting for an opponent is not "to move".
    for side in Side.values:
        rooms = rooms.exclude(**{f"game__{side}_user__isnull": True, f"game__{side}_token": ""})
    return rooms


def your_turn_count(user_id: int) -> int:
    return _your_turn_rooms(user_id).count()


def your_turn(user_id: int) -> list[TurnGame]:
    """The player's games where they are to move, the most urgent first."""
    rooms = _your_turn_rooms(user_id).select_related("game")
    rooms = rooms.order_by(F("turn_deadline").asc(nulls_last=True), "-game__updated_at")
    now = clock.now()
    return [
        TurnGame(room, max(room.turn_deadline - now, timedelta(0)) if room.turn_deadline else None)
        for room in rooms[:100]
    ]


def unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def _notify(user_id: int, game_id: int, kind: str, version: int) -> bool:
    """Raise a notice once per (player, game, kind, position); True if it is new."""
    try:
        with transaction.atomic():
            Notification.objects.create(
                user_id=user_id, game_id=game_id, kind=kind, version=version, created_at=clock.now()
            )
    except IntegrityError:
        return False
    return True


@receiver(game_changed, dispatch_uid="notifications.turn")
def _on_change(sender: object, *, change, **kwargs: object) -> None:
    """A correspondence game passed the move to a signed-in player: tell them.

    And a "your turn" notice no longer applies once its player is not to move in
    that game (they moved, or the game ended): it is marked read.
    """
    game = change.game
    if game.mode != Game.Mode.ONLINE:
        return
    _settle_turn_notices(game, change)
    if change.status != Game.Status.ACTIVE:
        return
    user_id = getattr(game, f"{change.to_move}_user_id")
    if user_id is None or change.event not in ("move", "seated", "takeback"):
        return
    if change.drawn and change.drawn[-1].side == change.to_move:
        return  # the same player moves again after claiming a box: not a new turn
    corr = Room.objects.filter(game=game, timer_seconds__gte=CORRESPONDENCE_FROM).exists()
    if corr:
        _notify(user_id, game.pk, Notification.Kind.TURN, change.version)


def _settle_turn_notices(game: Game, change) -> None:
    over = change.status != Game.Status.ACTIVE
    done = [
        user_id
        for side in Side.values
        if (user_id := getattr(game, f"{side}_user_id")) and (over or side != change.to_move)
    ]
    if done:
        Notification.objects.filter(
            user_id__in=done, game=game, kind=Notification.Kind.TURN, read_at__isnull=True
        ).update(read_at=clock.now())


def warn_before(timer_seconds: int) -> timedelta:
    """When to warn: a day before the deadline, or with a quarter of the time left
    when a move has only a day (else the warning would come with the turn)."""
    per_move = timedelta(seconds=timer_seconds)
    return WARN_BEFORE if per_move > WARN_BEFORE else per_move / 4


def warn_deadlines(now: datetime) -> int:
    """A notice for each correspondence game whose side to move is running out of time."""
    rooms = Room.objects.filter(
        game__status=Game.Status.ACTIVE,
        timer_seconds__gte=CORRESPONDENCE_FROM,
        turn_deadline__gt=now,
        turn_deadline__lte=now + WARN_BEFORE,
    ).values_list(
        "game_id",
        "game__version",
        "to_move",
        "game__blue_user_id",
        "game__red_user_id",
        "timer_seconds",
        "turn_deadline",
    )
    raised = 0
    for game_id, version, to_move, blue, red, timer, deadline in rooms:
        user_id = blue if to_move == Side.BLUE else red
        if user_id is not None and deadline - now <= warn_before(timer):
            raised += _notify(user_id, game_id, Notification.Kind.DEADLINE, version)
    return raised


def send_mail_due(now: datetime) -> int:
    """Mail each opted-in player with a confirmed address their notices not mailed
    yet, at most once per ``mail_every()``; returns how many messages were sent."""
    sent = 0
    # Only to a confirmed address: an address typed but never confirmed may be a stranger's.
    waiting = Notification.objects.filter(
        emailed_at__isnull=True,
        read_at__isnull=True,
        user__notify_prefs__email=True,
        user__profile__email_verified=True,
    )
    for user_id in set(waiting.values_list("user_id", flat=True)):
        with transaction.atomic():
            # The row lock makes two clocks agree on who mails this player now.
            prefs = Preferences.objects.select_for_update(skip_locked=True).filter(user_id=user_id)
            prefs = prefs.first()
            if prefs is None or not prefs.email:
                continue
            if prefs.last_mailed_at and now - prefs.last_mailed_at < mail_every():
                continue
            notices = list(waiting.filter(user_id=user_id).select_related("game"))
            # A notice about a game the player has moved in since (or that ended) would
            # send them to a board that no longer waits for them: it is settled, not mailed.
            waiting_games = set(_your_turn_rooms(user_id).values_list("game_id", flat=True))
            current = [n for n in notices if n.game_id in waiting_games]
            stale = [n.pk for n in notices if n.game_id not in waiting_games]
            Notification.objects.filter(pk__in=stale).update(emailed_at=now)
            if not current:
                continue
            user = get_user_model().objects.get(pk=user_id)
            if not user.email:
                continue
            # The clock's thread has no reader: the mail speaks the player's saved language.
            with translation.override(_mail_language(user_id)):
                body = render_to_string(
                    "notifications/mail.txt",
                    {
                        "user": user,
                        "notices": current,
                        "site": site_url(),
                        # What happens when the time runs out: a day more, while days last.
                        "vacation_left": vacation.days_left(user_id)
                        if vacation.days_per_year() and vacation.auto_on(user_id)
                        else None,
                        "vacation_per_year": vacation.days_per_year(),
                    },
                )
                subject = _("Your turn at dotsboxes")
            send_mail(subject, body, None, [user.email])
            Notification.objects.filter(pk__in=[n.pk for n in current]).update(emailed_at=now)
            prefs.last_mailed_at = now
            prefs.save(update_fields=["last_mailed_at"])
            sent += 1
    return sent


def _mail_language(user_id: int) -> str:
    saved = Profile.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return saved or settings.LANGUAGE_CODE


def site_url() -> str:
    return str(settings.SITE_URL).rstrip("/")


_last_pass = [float("-inf")]


@receiver(ticked, dispatch_uid="notifications.tick")
def _on_tick(sender: object, *, now: datetime, **kwargs: object) -> None:
    # The clock ticks twice a second; deadlines in days and mail by the hour need
    # a look every NOTIFY_EVERY_SECONDS (30 s) only.
    every = float(settings.NOTIFY_EVERY_SECONDS)
    if time.monotonic() - _last_pass[0] < every:
        return
    _last_pass[0] = time.monotonic()
    warn_deadlines(now)
    send_mail_due(now)
