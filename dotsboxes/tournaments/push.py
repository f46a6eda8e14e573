"""Pushes of a tournament page: its live part (status, countdown, standings, games),
rendered once per language the site speaks and sent to that language's group, as
the rooms do (:func:`dotsboxes.rooms.push.language_group`).  Always after commit;
a lost push is repaired by the page's version check (``data-version``) or, without
JavaScript, by its periodic reload."""

from __future__ import annotations

from django.db import transaction
from django.template.loader import render_to_string

from dotsboxes.rooms import push as room_push

from .models import Tournament
from .presenters import live_context  # the page and the push share one context


def render_live(tournament: Tournament, *, oob: bool = True) -> str:
    return render_to_string(
        "tournaments/detail.html#live", {**live_context(tournament), "oob": oob}
    )


def send(tournament_id: int) -> None:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is not None:
        room_push._send_in_each_language(tournament.group, lambda: render_live(tournament))


def after_commit(tournament_id: int) -> None:
    transaction.on_commit(lambda: send(tournament_id))
