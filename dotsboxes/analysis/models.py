"""Stored analyses of finished games: one row per game, game version and engine version."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from dotsboxes.games.models import Game


class GameAnalysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for the engine")
        RUNNING = "running", _("Analysing")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="analyses")
    # The game's version when analysed: a game changed since is analysed again.
    game_version = models.PositiveIntegerField()
    # dotsboxes.engine.annotate.VERSION: a newer analysis replaces an older one.
    engine_version = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveSmallIntegerField(default=0)  # edges analysed so far
    total = models.PositiveSmallIntegerField(default=0)
    # Whose share of the background lane it takes (analysis/scheduling.py): "user:<pk>"
    # or "session:<key>"; and when it was sent to the engine (empty: waiting for a place).
    owner = models.CharField(max_length=64, blank=True, default="", db_index=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # What dotsboxes.engine.annotate.annotate returned (plain JSON).
    result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "game_version", "engine_version"], name="one_analysis_per_version"
            )
        ]

    def __str__(self) -> str:
        return f"Analysis of {self.game.public_id} v{self.game_version} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)
