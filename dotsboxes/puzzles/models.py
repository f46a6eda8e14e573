"""Puzzles, each proved by the solver; attempts; players' puzzle ratings (Glicko-2)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.http import urlencode

from dotsboxes.accounts.models import Glicko2Rated
from dotsboxes.rules import Board


class Puzzle(Glicko2Rated):
    """A position (the game's edges up to it) and its proved line (see engine/puzzles.py)."""

    class Source(models.TextChoices):
        SELFPLAY = "selfplay", "engine self-play"
        GAME = "game", "site game"

    #: ``<width>x<height>:<Board.key()>``: one puzzle per position, so a build is idempotent.
    position_key = models.CharField(max_length=160, unique=True)
    width = models.PositiveSmallIntegerField()
    height = models.PositiveSmallIntegerField()
    moves = models.JSONField()  # the edges drawn before the puzzle, in order
    line = models.JSONField()  # engine.puzzles.Step.as_dict() for each step
    wrong = models.JSONField()  # engine.puzzles.refutations(): per player step
    themes = models.JSONField()  # 1 to 3 slugs of engine.puzzles.THEMES
    source = models.CharField(max_length=10, choices=Source.choices)
    seed = models.IntegerField(null=True, blank=True)  # the self-play seed
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="puzzles"
    )
    ply = models.PositiveIntegerField()  # edges of the source game before the puzzle
    hidden = models.BooleanField(default=False)
    attempts = models.PositiveIntegerField(default=0)  # rated attempts
    solved = models.PositiveIntegerField(default=0)  # rated attempts solved without a mistake
    version = models.PositiveSmallIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["hidden", "rating"])]

    def __str__(self) -> str:
        return f"Puzzle {self.pk} ({self.width}x{self.height}, {', '.join(self.themes)})"

    def get_absolute_url(self) -> str:
        return reverse("puzzles:puzzle", args=[self.pk])

    @property
    def source_url(self) -> str:
        """The source game at the puzzle's position.

        A site game: its replay at that ply.  A self-play seed game is not a
        site game, so it has no replay: the analysis board shows its edges up
        to the puzzle instead (listed, and Undo steps back through them).
        """
        if self.game_id is not None:
            return f"{reverse('games:replay', args=[self.game.public_id])}?ply={self.ply}"
        query = {"position": Board(self.width, self.height).key(), "line": ",".join(self.moves)}
        return f"{reverse('analysis:board')}?{urlencode(query)}"

    @property
    def success_rate(self) -> int | None:
        return round(100 * self.solved / self.attempts) if self.attempts else None


class PuzzleRating(Glicko2Rated):
    """A signed-in player's puzzle rating (anonymous players keep one in their session)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_rating"
    )
    best_streak = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user}: {self.rating:.0f}"


class PuzzleAttempt(models.Model):
    """One player's rated try at one puzzle (the first; retries are not rated)."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempt_rows")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    session_key = models.CharField(max_length=40, blank=True, default="", db_index=True)
    solved = models.BooleanField()  # solved without a wrong move
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    puzzle_rating_before = models.FloatField()
    puzzle_rating_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user or self.session_key}: {self.puzzle_id} {'ok' if self.solved else 'x'}"

    @property
    def delta(self) -> int:
        return round(self.rating_after) - round(self.rating_before)


class ScannedGame(models.Model):
    """A site game ``build_puzzles`` has looked through (so the next run skips it)."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="+")
    found = models.PositiveSmallIntegerField(default=0)
    scanned_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"game {self.game_id}: {self.found} puzzles"
