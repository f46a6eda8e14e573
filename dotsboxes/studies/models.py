"""Studies: a title, a description and chapters; each chapter is kept as its text.

A chapter's ``text`` is the chapter in the study format (:mod:`.notation`, from
its ``Chapter:`` line on): the one truth, read again on every page.  The solver's
findings live apart, one :class:`PositionCheck` per position, so a claim made in
two studies, or kept through an edit, is checked once.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from . import notation

MAX_CHAPTERS = 64
MAX_CHAPTER_CHARS = 20_000


def new_slug() -> str:
    """An unguessable id: an unlisted study is shared by its link alone."""
    return secrets.token_urlsafe(8)


class Study(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public: listed on the studies page")
        UNLISTED = "unlisted", _("Unlisted: anyone with the link")
        PRIVATE = "private", _("Private: only you")

    slug = models.CharField(max_length=16, unique=True, default=new_slug, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="studies"
    )
    title = models.CharField(max_length=120)
    description = models.TextField(blank=True, max_length=4000)
    visibility = models.CharField(
        max_length=8, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    # Staff took it off the public list (after a report); the owner cannot list it again.
    unlisted_by_staff = models.BooleanField(default=False)
    # Staff show it in the guide beside the site's own studies.
    featured = models.BooleanField(default=False)
    copied_from = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "studies"
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["visibility", "-updated_at"])]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("studies:study", args=[self.slug])

    @property
    def is_listed(self) -> bool:
        return self.visibility == self.Visibility.PUBLIC and not self.unlisted_by_staff

    def may_view(self, user) -> bool:
        """Anyone may open a public or unlisted study; a private one, its owner and the staff."""
        if self.visibility != self.Visibility.PRIVATE:
            return True
        return bool(user.is_authenticated and (user.pk == self.owner_id or user.is_staff))

    def may_edit(self, user) -> bool:
        return bool(user.is_authenticated and user.pk == self.owner_id)

    def as_notation(self) -> notation.Study:
        """The whole study as the format's objects (every chapter parsed)."""
        return notation.Study(
            self.title, self.description, [c.parsed() for c in self.chapters.all()]
        )


class Chapter(models.Model):
    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="chapters")
    number = models.PositiveIntegerField()  # 1, 2, … in reading order
    title = models.CharField(max_length=120)
    text = models.TextField(max_length=MAX_CHAPTER_CHARS)
    version = models.PositiveIntegerField(
        default=1
    )  # bumped on every edit: stale forms are refused

    class Meta:
        ordering = ["study", "number"]
        constraints = [
            models.UniqueConstraint(fields=["study", "number"], name="studies_chapter_number")
        ]

    def __str__(self) -> str:
        return f"{self.study} / {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("studies:chapter", args=[self.study.slug, self.number])

    def parsed(self) -> notation.Chapter:
        """The chapter's text read (it was checked when stored)."""
        (chapter,) = notation.parse_study(f"{notation.TITLE}\nTitle: x\n\n{self.text}").chapters
        return chapter


class PositionCheck(models.Model):
    """What the solver found about one position: every undrawn edge's value, exact or not."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting")
        RUNNING = "running", _("checking")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    key = models.CharField(max_length=120, unique=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    # board_values.deep's result: values, exact_edges, exact, value, best.
    result = models.JSONField(null=True, blank=True)
    seconds = models.FloatField(null=True, blank=True)  # the solver's time, for the benchmark
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.key} ({self.status})"


class ChapterProgress(models.Model):
    """A signed-in reader's answers to a chapter's questions (question number: right?)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    chapter = models.ForeignKey(Chapter, on_delete=models.CASCADE, related_name="progress")
    answers = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "chapter"], name="studies_progress_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} / {self.chapter}"
