"""Vacation days for correspondence games (LittleGolem's days per year).

Rule: when a correspondence deadline passes, the room clock (``ticker._lose_on_time``)
asks :func:`cover` before ending the game on time.  A player with the feature on
(``VACATION_DAYS_PER_YEAR`` > 0, their own choice on, not a bot account) spends one
day per **calendar day on which a deadline of theirs passed** (the deadline's date,
not the clock's: a clock that was down counts the days of absence, not its own
pass), and that day covers all their games whose deadline passes that day.  Each
covered deadline moves one day later.  With no day left this year the game is lost
on time, as before.  The year is the deadline's calendar year.
"""

from __future__ import annotations

from datetime import date, datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from dotsboxes import clock

from .models import VacationChoice, VacationDay


def days_per_year() -> int:
    """The allowance; 0 switches vacation days off."""
    return max(int(settings.VACATION_DAYS_PER_YEAR), 0)


def days_used(user_id: int, year: int) -> int:
    return VacationDay.objects.filter(user_id=user_id, day__year=year).count()


def days_left(user_id: int, year: int | None = None) -> int:
    year = year or timezone.localdate(clock.now()).year
    return max(days_per_year() - days_used(user_id, year), 0)


def auto_on(user_id: int) -> bool:
    choice = VacationChoice.objects.filter(user_id=user_id).values_list("auto", flat=True)
    return choice.first() is not False


def cover(user_id: int, deadline: datetime) -> date | None:
    """The vacation day covering a deadline of this player that passed (spending a
    new one if that day is not spent yet and any are left), or None: lost on time.

    Call it in the room clock's transaction, under the room's lock.  The player's
    user row is locked too, so two clocks handling two of their rooms at once count
    and spend their days one after the other (never one day more than the year has)."""
    per_year = days_per_year()
    if per_year == 0 or not auto_on(user_id):
        return None
    users = get_user_model().objects.filter(pk=user_id)
    # Bot accounts (the api app's ``bot`` row) get none: a stopped engine should not
    # keep a person waiting two weeks.  Looked up by the relation's name, not imported.
    if users.filter(bot__isnull=False).exists():
        return None
    # The lock (a no-op on SQLite, which has one writer at a time anyway).
    list(users.select_for_update().values_list("pk", flat=True))
    day = timezone.localdate(deadline)
    if VacationDay.objects.filter(user_id=user_id, day=day).exists():
        return day
    if days_used(user_id, day.year) >= per_year:
        return None
    VacationDay.objects.create(user_id=user_id, day=day)
    return day
