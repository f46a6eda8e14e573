"""Tournaments: arena and Swiss.  Each game is an ordinary room (``rooms.Room``).

A tournament row is the lock every tournament command takes
(``select_for_update``): joining, pairing, recording a result and finishing are
serialised per tournament, so a round is paired once however many processes hear
the last game end.  Scores are not stored: standings are worked out from the
pairings (:mod:`dotsboxes.tournaments.standings`), so a result can never be
counted twice.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from dotsboxes.games.models import Game
from dotsboxes.rooms.models import Room

NAME_MAX = 60
# A tournament game needs a clock, or a player who never comes back would hold the
# whole event: live timers let the computer play a timed-out turn, correspondence
# timers lose the game on time.
TIMERS = [(value, label) for value, label in Room.Timer.choices if value]


class Tournament(models.Model):
    class Kind(models.TextChoices):
        ARENA = "arena", _("Arena")
        SWISS = "swiss", _("Swiss")

    class Status(models.TextChoices):
        UPCOMING = "upcoming", _("Upcoming")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(max_length=NAME_MAX)
    kind = models.CharField(max_length=5, choices=Kind.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournaments_created"
    )
    width = models.PositiveSmallIntegerField(default=5)
    height = models.PositiveSmallIntegerField(default=5)
    timer_seconds = models.PositiveIntegerField(choices=TIMERS, default=Room.Timer.SECONDS_60)
    rated = models.BooleanField(default=True)
    starts_at = models.DateTimeField(db_index=True)
    # Arena: how long pairing goes on.  Swiss: how many rounds.
    duration_minutes = models.PositiveIntegerField(null=True, blank=True)
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    featured = models.BooleanField(default=False)  # staff: shown on the home page
    # Bot accounts may enter only when the organiser allows them (``rules.may_join``).
    allow_bots = models.BooleanField(default=False)
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.UPCOMING, db_index=True
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    # Bumped on every change pushed to the page; a page that sees a gap reloads.
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.pk])

    @property
    def group(self) -> str:
        """The channel-layer group of everyone watching this tournament."""
        return f"tournament.{self.pk}"

    @property
    def ends_at(self):
        """Arena: when pairing stops (None for a Swiss, which ends with its last round)."""
        if self.kind == self.Kind.ARENA and self.duration_minutes:
            return self.starts_at + timedelta(minutes=self.duration_minutes)
        return None

    @property
    def is_correspondence(self) -> bool:
        return self.timer_seconds >= 86400


class Entry(models.Model):
    """A player in a tournament.  ``active`` is False once they left (arena: paused,
    they may come back; Swiss: withdrawn, no further pairings)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    seed = models.FloatField(default=1500)  # rating when joining: order among equal scores
    active = models.BooleanField(default=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")
        ]
        ordering = ["joined_at", "id"]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"


class Pairing(models.Model):
    """One game of a tournament (or a Swiss bye: no game, no red).

    ``blue_points``/``red_points`` are set once, when the game's result is recorded
    (``recorded``); a pairing without a game (a bye) is recorded when made."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.PositiveSmallIntegerField(default=0)  # Swiss round; 0 in an arena
    blue = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    red = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+", null=True)
    game = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="tournament_pairing"
    )
    recorded = models.BooleanField(default=False, db_index=True)
    blue_points = models.PositiveSmallIntegerField(default=0)
    red_points = models.PositiveSmallIntegerField(default=0)
    # Arena streaks count results in the order they finished.
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "id"]
        constraints = [
            # A Swiss round pairs each player once (arenas use round 0 and many pairings).
            models.UniqueConstraint(
                fields=["tournament", "round", "blue"],
                condition=models.Q(round__gt=0),
                name="swiss_blue_once_per_round",
            ),
            models.UniqueConstraint(
                fields=["tournament", "round", "red"],
                condition=models.Q(round__gt=0),
                name="swiss_red_once_per_round",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.round}: {self.blue_id} v {self.red_id}"

    @property
    def is_bye(self) -> bool:
        return self.red_id is None
