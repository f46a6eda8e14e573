"""In-site notices about correspondence games, and who wants them by email."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    class Kind(models.TextChoices):
        TURN = "turn", _("Your turn")
        DEADLINE = "deadline", _("Time running out")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    # The game's version when it was raised: one notice per kind, game and position.
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField()
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "kind", "version"], name="one_notice_per_position"
            )
        ]
        indexes = [models.Index(fields=["user", "read_at"])]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} {self.game_id}@{self.version}"


class Preferences(models.Model):
    """A player's notification settings (a row only once they change them)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notify_prefs"
    )
    email = models.BooleanField(
        _("Email me when it is my turn in a correspondence game"), default=False
    )
    last_mailed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user}: email {'on' if self.email else 'off'}"
