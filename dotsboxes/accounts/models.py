"""Ratings (one ``Rating`` per player, one ``RatingChange`` per player per rated game),
a player's ``Profile`` (language, the state of their email address, closing) and the
names that stay reserved."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .glicko2 import DEFAULT_DEVIATION, DEFAULT_RATING, DEFAULT_VOLATILITY, Glicko2

#: Below this deviation a rating is "established"; above it the site marks it with a "?".
PROVISIONAL_DEVIATION = 110


class Glicko2Rated(models.Model):
    """The three numbers of a Glicko-2 rating, for anything rated: players, puzzles."""

    rating = models.FloatField(default=DEFAULT_RATING)
    deviation = models.FloatField(default=DEFAULT_DEVIATION)
    volatility = models.FloatField(default=DEFAULT_VOLATILITY)

    class Meta:
        abstract = True

    @property
    def glicko2(self) -> Glicko2:
        return Glicko2(self.rating, self.deviation, self.volatility)

    @glicko2.setter
    def glicko2(self, value: Glicko2) -> None:
        self.rating, self.deviation, self.volatility = (
            value.rating,
            value.deviation,
            value.volatility,
        )


class Rating(Glicko2Rated):
    """A player's current Glicko-2 rating."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating"
    )
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)  # ties on boxes and agreed draws
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-rating"]
        indexes = [models.Index(fields=["-rating"])]

    def __str__(self) -> str:
        return f"{self.user} {self.display}"

    @property
    def is_provisional(self) -> bool:
        return self.deviation >= PROVISIONAL_DEVIATION

    @property
    def display(self) -> str:
        """The rating as people read it: ``1523``, or ``1500?`` while provisional."""
        return f"{round(self.rating)}{'?' if self.is_provisional else ''}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating (exactly one row per game and player)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    score = models.FloatField()  # 1 win, 0.5 tie or agreed draw, 0 loss
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_before = models.FloatField()
    deviation_after = models.FloatField()
    volatility_after = models.FloatField()
    opponent_rating = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_rating_change_per_game_user")
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.rating_before:.0f} -> {self.rating_after:.0f} ({self.game_id})"

    @property
    def delta(self) -> int:
        return round(self.rating_after) - round(self.rating_before)


class Profile(models.Model):
    """A player's settings that follow them from browser to browser."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    #: A code from ``settings.LANGUAGES``; empty until the player picks one, and
    #: then the browser's language decides, as for anyone signed out.
    language = models.CharField(max_length=15, blank=True, choices=settings.LANGUAGES)
    #: The account's address (``User.email``) was confirmed by a click on a signed
    #: link sent to it.  Only then does the site mail it (notices, password resets).
    email_verified = models.BooleanField(default=False)
    #: Goes into every confirmation link and changes when a link is sent, used, or the
    #: address changes: only the newest link works, and only once (``accounts.email``).
    email_key = models.CharField(max_length=32, blank=True, default="")
    #: Set when the player closed the account (``privacy.closing``); the row stays so
    #: that the closing is on record, every personal field is emptied.
    closed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user}: {self.language or '-'}"


class ReservedName(models.Model):
    """A name nobody may sign up with any more: the name of a closed account.

    Kept (casefolded, so any spelling is refused) so that nobody can take a closed
    account's name and pass for its former owner in front of their opponents.
    """

    name = models.CharField(max_length=150, unique=True)
    reason = models.CharField(max_length=20, default="closed")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.name} ({self.reason})"

    @classmethod
    def holds(cls, name: str) -> bool:
        return cls.objects.filter(name=name.casefold()).exists()
