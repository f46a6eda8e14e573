"""Closing an account: what the player has under way is resolved, their personal data
goes, their finished games stay for the opponents under a neutral name.

``account_close`` is the one command.  Games under way are ended by the rooms'
own commands (a resignation, or an abort where nobody has taken the other seat),
pending challenges by the bot API's decline, tournament entries by the
tournaments' leave: each with its usual pushes and log lines, so the opponents
see what they would see had the player clicked the button.  Then, in one
transaction, the account is emptied and renamed ``closed-<id>``; the old name is
kept in ``ReservedName`` so nobody can sign up with it.  docs/ACCOUNTS.md lists
exactly what is kept and why.
"""

from __future__ import annotations

import logging

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Q

from dotsboxes import clock
from dotsboxes.accounts.forms import CLOSED_PREFIX
from dotsboxes.accounts.models import Profile, ReservedName
from dotsboxes.api import services as api
from dotsboxes.api.models import ApiToken, Challenge
from dotsboxes.games.errors import GameError
from dotsboxes.games.models import CLOSED_ACCOUNT, Game, Side
from dotsboxes.guide.models import ExerciseProgress
from dotsboxes.moderation.models import Block
from dotsboxes.notifications.models import Notification, Preferences
from dotsboxes.puzzles.models import PuzzleAttempt, PuzzleRating
from dotsboxes.rooms import services as rooms
from dotsboxes.rooms.identity import NAME_MAX, Viewer
from dotsboxes.rooms.models import Message, Room, VacationChoice, VacationDay
from dotsboxes.studies.models import ChapterProgress, Study
from dotsboxes.tournaments import services as tournaments
from dotsboxes.tournaments.models import Entry, Tournament

logger = logging.getLogger(__name__)


def _viewer(user) -> Viewer:
    return Viewer(user.pk, "", user.username, f"u:{user.pk}")


def _mine(user) -> Q:
    return Q(blue_user=user) | Q(red_user=user)


def _end_rooms(user) -> None:
    """Resign every online game under way; abort one still waiting for an opponent."""
    games = Game.objects.filter(_mine(user), mode=Game.Mode.ONLINE, status=Game.Status.ACTIVE)
    for public_id in games.filter(room__isnull=False).values_list("public_id", flat=True):
        viewer = _viewer(user)
        for command in (rooms.room_resign, rooms.room_abort):
            version = Game.objects.filter(public_id=public_id).values_list("version", flat=True)
            try:
                command(public_id=public_id, viewer=viewer, version=version.first())
                break
            except GameError as exc:  # alone in the room: resigning is refused, abort
                logger.info("closing: %s on %s refused: %s", command.__name__, public_id, exc)


def _withdraw(user) -> None:
    entries = Entry.objects.filter(user=user, active=True).exclude(
        tournament__status=Tournament.Status.FINISHED
    )
    for tournament_id in entries.values_list("tournament_id", flat=True):
        try:
            tournaments.tournament_leave(tournament_id=tournament_id, user=user)
        except GameError as exc:  # finished meanwhile
            logger.info("closing: leaving tournament %s refused: %s", tournament_id, exc)


def _decline_challenges(user) -> None:
    pending = Challenge.objects.filter(
        Q(challenger=user) | Q(target=user), status=Challenge.Status.PENDING
    )
    for challenge_id in pending.values_list("pk", flat=True):
        try:
            api.challenge_decline(challenge_id=challenge_id, user=user)
        except GameError as exc:  # answered meanwhile
            logger.info("closing: challenge %s: %s", challenge_id, exc)


def _forget_sessions(user_id: int) -> int:
    """Delete every stored session signed in as the player.

    Sessions are not indexed by user: each live one is decoded (a few microseconds
    each).  Its password hash no longer matching would sign them out at their next
    request anyway; deleting them also deletes what they held.
    """
    doomed = []
    live = Session.objects.filter(expire_date__gt=clock.now())
    for session in live.iterator(chunk_size=2000):
        if str(session.get_decoded().get("_auth_user_id")) == str(user_id):
            doomed.append(session.pk)
    Session.objects.filter(pk__in=doomed).delete()
    return len(doomed)


def _anonymise_games(user, old_name: str) -> None:
    for side in Side.values:
        Game.objects.filter(**{f"{side}_user": user}).update(**{f"{side}_name": CLOSED_ACCOUNT})
    # Room logs store names in their lines' values ("%(name)s resigned."); chat lines
    # the player wrote are free text of theirs and go.
    mine = Room.objects.filter(Q(game__blue_user=user) | Q(game__red_user=user))
    names = {old_name, old_name[:NAME_MAX]}  # a seat keeps the first NAME_MAX letters
    lines = Message.objects.filter(room__in=mine)
    lines.filter(kind=Message.Kind.CHAT, author_key=f"u:{user.pk}").delete()
    for line in lines.filter(kind=Message.Kind.SYSTEM):
        params = line.params or {}
        if names & {str(v) for v in params.values()}:
            line.params = {k: CLOSED_ACCOUNT if v in names else v for k, v in params.items()}
            line.save(update_fields=["params"])


def account_close(*, user) -> None:
    """Close ``user``'s account (the caller has checked the password)."""
    _decline_challenges(user)
    _end_rooms(user)
    _withdraw(user)
    old_name = user.username
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        _anonymise_games(user, old_name)
        ReservedName.objects.get_or_create(name=old_name.casefold())
        ApiToken.objects.filter(user=user).delete()
        # Blocks either way are preferences; mutes, fair-play decisions and chat reports
        # are staff records and stay (docs/MODERATION.md).
        Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()
        Preferences.objects.filter(user=user).delete()
        Notification.objects.filter(user=user).delete()
        VacationChoice.objects.filter(user=user).delete()
        VacationDay.objects.filter(user=user).delete()
        ExerciseProgress.objects.filter(user=user).delete()
        ChapterProgress.objects.filter(user=user).delete()
        # Studies are the player's writing and go; one that was reported stays for the
        # staff (a deleted study would take its reports with it), private from now on.
        studies = Study.objects.filter(owner=user)
        studies.filter(reports__isnull=True).delete()
        studies.update(visibility=Study.Visibility.PRIVATE, featured=False)
        PuzzleAttempt.objects.filter(user=user).delete()
        PuzzleRating.objects.filter(user=user).delete()
        # Sign-in attempts keep the name and network addresses that tried it.
        AccessAttempt.objects.filter(username=old_name).delete()
        AccessLog.objects.filter(username=old_name).delete()
        AccessFailureLog.objects.filter(username=old_name).delete()
        Profile.objects.update_or_create(
            user=user,
            defaults={
                "language": "",
                "email_verified": False,
                "email_key": "",
                "closed_at": clock.now(),
            },
        )
        user.username = f"{CLOSED_PREFIX}{user.pk}"
        user.email = user.first_name = user.last_name = ""
        user.is_active = user.is_staff = user.is_superuser = False
        user.set_unusable_password()
        user.save()
        _forget_sessions(user.pk)
    logger.info("account %s closed", user.pk)
