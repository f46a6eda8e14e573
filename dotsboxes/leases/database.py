"""Leases kept in the database: where a claim lives while the cache (Redis) is down.

A lease is a named claim that lapses unless renewed: ``acquire`` takes it only
if nobody holds it or the holder let it lapse.  Only :mod:`dotsboxes.leases`
(the claims) uses it, so a game against the computer never depends on Redis.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone


def acquire(key: str, seconds: float) -> bool:
    """Take the lease ``key`` for ``seconds``; False while someone else holds it."""
    from .models import Lease

    now = timezone.now()
    with transaction.atomic():
        Lease.objects.filter(key=key, expires_at__lte=now).delete()
        try:
            with transaction.atomic():
                Lease.objects.create(key=key, expires_at=now + timedelta(seconds=seconds))
        except IntegrityError:
            return False
    # Old leases of other keys are left by finished jobs: sweep now and then.
    if now.second == 0:
        Lease.objects.filter(expires_at__lte=now - timedelta(hours=1)).delete()
    return True


def renew(key: str, seconds: float) -> None:
    from .models import Lease

    Lease.objects.filter(key=key).update(expires_at=timezone.now() + timedelta(seconds=seconds))


def release(key: str) -> None:
    from .models import Lease

    Lease.objects.filter(key=key).delete()


def held(key: str) -> bool:
    """True while someone holds the lease ``key`` (taken and not lapsed)."""
    from .models import Lease

    return Lease.objects.filter(key=key, expires_at__gt=timezone.now()).exists()
