"""Who may enter a tournament: one function, so a new kind of account plugs in here."""

from __future__ import annotations

from django.utils.translation import gettext as _

from dotsboxes import clock
from dotsboxes.moderation.services import rated_refusal

from .models import Tournament


def is_bot(user: object) -> bool:
    """Whether ``user`` is a bot account (the bot API's ``BotAccount``, reached by its
    relation name: the api app sits beside this one, so it is not imported)."""
    return hasattr(user, "bot")  # a missing one-to-one row raises an AttributeError


def may_join(user: object, tournament: Tournament) -> str:
    """ "" if ``user`` may enter ``tournament`` now, else the reason, a sentence to show.

    A Swiss takes entries until its first round is paired; an arena until it ends."""
    if not getattr(user, "is_authenticated", False):
        return _("Sign in to join a tournament.")
    if is_bot(user) and not tournament.allow_bots:
        return _("This tournament is for people: its organiser does not allow bots.")
    if tournament.status == Tournament.Status.FINISHED:
        return _("This tournament is over.")
    if tournament.rated and (refusal := rated_refusal(user.pk)):
        return refusal
    if tournament.kind == Tournament.Kind.SWISS and tournament.status != Tournament.Status.UPCOMING:
        return _("This Swiss tournament has started: entries are closed.")
    ends_at = tournament.ends_at
    if ends_at is not None and clock.now() >= ends_at:
        return _("This tournament is over.")
    return ""
