from __future__ import annotations

from django.db import models


class Lease(models.Model):
    """One named claim and when it lapses."""

    key = models.CharField(max_length=200, primary_key=True)
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key} until {self.expires_at:%H:%M:%S}"
