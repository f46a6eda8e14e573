"""Practice progress kept for signed-in players (browsers keep theirs in the session)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ExerciseProgress(models.Model):
    """One player's record on one exercise: how many tries, solved, right first time."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="exercise_progress"
    )
    exercise = models.CharField(max_length=60)  # the exercise's slug
    attempts = models.PositiveIntegerField(default=0)
    solved = models.BooleanField(default=False)
    first_try = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "exercise"], name="one_progress_per_exercise")
        ]
        verbose_name_plural = "exercise progress"

    def __str__(self) -> str:
        state = "solved" if self.solved else "not solved"
        return f"{self.user} · {self.exercise} · {state} in {self.attempts}"
