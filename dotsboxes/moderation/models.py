"""What keeps players safe from each other and games fair: blocks, chat mutes,
fair-play decisions and the mark they may leave on an account.

These rows only need the user model, so the layers that enforce them (rooms,
tournaments, the bot challenges) import this app, never the other way round.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Block(models.Model):
    """``blocker`` does not want to meet ``blocked``: no challenges, no seat in each
    other's rooms, no rooms of one in the other's lobby, and ``blocked``'s chat hidden
    from ``blocker``.  Only ``blocker`` sees it (and can lift it)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="no_self_block"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"


class ChatMute(models.Model):
    """Staff silenced ``user``'s chat until ``until``, for ``reason`` (kept: the player
    is told until when; the reason stays for staff)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes"
    )
    until = models.DateTimeField(db_index=True)
    reason = models.TextField(max_length=1000)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chat_mutes_given",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user} muted until {self.until:%Y-%m-%d %H:%M}"


class FairPlayDecision(models.Model):
    """One staff decision about a player's fair play: who, what, why, and the
    figures they decided on (``details``).  Never deleted: it is the log."""

    class Action(models.TextChoices):
        CLEAR = "clear", _("Cleared: nothing wrong")
        WARN = "warn", _("Warned")
        MARK = "mark", _("Account marked")
        UNMARK = "unmark", _("Mark lifted")
        VOID = "void", _("Ratings gained voided")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fairplay_decisions"
    )
    action = models.CharField(max_length=8, choices=Action.choices)
    reason = models.TextField(max_length=2000)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="fairplay_decisions_made",
    )
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_action_display()}: {self.user} by {self.by}"


class FairPlayMark(models.Model):
    """The account broke the fair-play rules (a staff decision): labelled on its profile
    and kept out of rated play.  The row exists exactly while the mark stands."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fairplay_mark"
    )
    decision = models.ForeignKey(FairPlayDecision, on_delete=models.PROTECT, related_name="+")
    since = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} marked since {self.since:%Y-%m-%d}"


class GameFigures(models.Model):
    """One player's fair-play figures in one analysed rated game (``moderation.fairplay``),
    kept so a player's recent games add up in one query.  Made from the game's stored
    analysis; redone when a newer analysis replaces it."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="fairplay")
    analysis = models.ForeignKey(
        "analysis.GameAnalysis", on_delete=models.CASCADE, related_name="fairplay"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fairplay_figures"
    )
    side = models.CharField(max_length=4)
    finished_at = models.DateTimeField(db_index=True)
    choices = models.PositiveSmallIntegerField()  # real choices, solved exactly
    matched = models.PositiveSmallIntegerField()  # of those, a proved best edge
    lost = models.PositiveSmallIntegerField()  # boxes lost against best play
    exact = models.PositiveSmallIntegerField()  # own edges in exactly solved positions
    edges = models.PositiveSmallIntegerField()  # own edges
    median_time = models.FloatField(null=True, blank=True)  # seconds before an own edge
    times = models.JSONField(default=list, blank=True)  # every one of them, rounded

    class Meta:
        ordering = ["-finished_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "side"], name="one_figures_per_game_side")
        ]
        indexes = [models.Index(fields=["user", "-finished_at"])]

    def __str__(self) -> str:
        return f"{self.user} in {self.game_id}: {self.matched}/{self.choices}"
