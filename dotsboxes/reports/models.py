"""A player's report that something went wrong at one point of one game, or in a study."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from dotsboxes.games.wording import size_text


class Report(models.Model):
    class Category(models.TextChoices):
        RULES = "rules", _("A rule was applied wrongly")
        COMPUTER = "computer", _("The computer misbehaved")
        CHAT = "chat", _("Offensive chat")
        STUDY = "study", _("Offensive or misleading study")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RESOLVED = "resolved", _("Resolved")

    # What is reported: a game, or a study (then ``ply`` is the chapter's number and the
    # position its start).
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="reports"
    )
    study = models.ForeignKey(
        "studies.Study", null=True, blank=True, on_delete=models.CASCADE, related_name="reports"
    )
    # The ruleset and the position as they were when the report was made.
    width = models.PositiveSmallIntegerField(help_text="Board width in boxes")
    height = models.PositiveSmallIntegerField(help_text="Board height in boxes")
    ply = models.PositiveIntegerField(help_text="Edges drawn at the reported moment")
    position_key = models.CharField(max_length=120)
    category = models.CharField(max_length=10, choices=Category.choices)
    text = models.TextField("What is wrong", max_length=2000)
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reports_made",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    resolution_note = models.TextField(blank=True, max_length=2000)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reports_resolved",
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "-created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(game__isnull=False, study__isnull=True)
                | models.Q(game__isnull=True, study__isnull=False),
                name="reports_game_or_study",
            )
        ]

    def __str__(self) -> str:
        return f"Report {self.pk}: {self.get_category_display()} at edge {self.ply}"

    def get_absolute_url(self) -> str:
        return reverse("reports:detail", args=[self.pk])

    @property
    def size_text(self) -> str:
        return size_text(self.width, self.height)


class ChatReport(models.Model):
    """A player's report of one chat line, with the lines around it as they were (the
    room may go, the staff still read what was said)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RESOLVED = "resolved", _("Resolved")

    message = models.ForeignKey(
        "rooms.Message", null=True, blank=True, on_delete=models.SET_NULL, related_name="reports"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="chat_reports"
    )
    # The line's author when an account wrote it (who can be muted), and as shown.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chat_reports_received",
    )
    author_name = models.CharField(max_length=40)
    text = models.CharField(max_length=200)
    # The chat lines around the reported one: [{"name", "text", "at", "reported"}].
    context = models.JSONField(default=list, blank=True)
    reason = models.TextField(max_length=1000, blank=True)
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="chat_reports_made",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    resolution_note = models.TextField(blank=True, max_length=2000)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chat_reports_resolved",
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One report of a line per reporter: sending it twice adds nothing.
            models.UniqueConstraint(
                fields=["message", "reporter"], name="one_chat_report_per_line_and_reporter"
            )
        ]

    def __str__(self) -> str:
        return f"Chat report {self.pk}: {self.author_name}: {self.text[:40]}"

    def get_absolute_url(self) -> str:
        return reverse("reports:chat_detail", args=[self.pk])
