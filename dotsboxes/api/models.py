"""Bot accounts, their API tokens, and challenges between a player and a bot.

A bot is an ordinary account with a ``BotAccount`` row: it signs in to the API
with a personal token (never a password) and plays in ordinary rooms.  Tokens
are stored as their SHA-256 digest only; the token itself is shown once.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from dotsboxes import clock
from dotsboxes.games.models import SIZE_VALIDATORS, Game


def challenge_lifetime() -> timedelta:
    """How long a challenge waits for its answer: a bot that is offline does not
    accept, hours later, a game its challenger has long stopped waiting for."""
    return timedelta(seconds=float(settings.API_CHALLENGE_SECONDS))


class BotAccount(models.Model):
    """Marks ``user`` as a bot: shown as BOT wherever its name is, driven through the API."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"BOT {self.user}"


class ApiToken(models.Model):
    """A personal token for the bot API, scoped to bot play (the only scope there is)."""

    class Scope(models.TextChoices):
        BOT_PLAY = "bot:play", _("Bot play")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=40, blank=True, default="")
    # SHA-256 of the token, hex: a leaked database does not leak working tokens.
    digest = models.CharField(max_length=64, unique=True)
    # The token's first characters, so its owner can tell tokens apart.
    prefix = models.CharField(max_length=12)
    scope = models.CharField(max_length=20, choices=Scope.choices, default=Scope.BOT_PLAY)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}… ({'revoked' if self.revoked_at else 'active'})"


class Challenge(models.Model):
    """An invitation to a game; accepting it opens an ordinary room with both seated."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    width = models.PositiveSmallIntegerField(default=5, validators=SIZE_VALIDATORS)
    height = models.PositiveSmallIntegerField(default=5, validators=SIZE_VALIDATORS)
    timer_seconds = models.PositiveIntegerField(default=0)
    rated = models.BooleanField(default=False)
    # The challenger's side: "blue", "red" or "random".
    side = models.CharField(max_length=6, default="random")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenge"
    )
    # The site's clock (tests move it forward), which also decides when it expires.
    created_at = models.DateTimeField(default=clock.now, db_index=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["target", "status"])]

    def __str__(self) -> str:
        return f"{self.challenger} -> {self.target} ({self.shown_status})"

    @property
    def expired(self) -> bool:
        """Still unanswered after :func:`challenge_lifetime`: it can no longer be accepted."""
        return (
            self.status == self.Status.PENDING
            and clock.now() - self.created_at > challenge_lifetime()
        )

    @property
    def shown_status(self) -> str:
        """The status, with ``expired`` for a pending challenge that has expired."""
        return "expired" if self.expired else self.status

    @classmethod
    def open_since(cls) -> object:
        """Challenges made after this moment are still open if pending."""
        return clock.now() - challenge_lifetime()
