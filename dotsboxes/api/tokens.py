"""Personal API tokens: made with ``secrets``, stored as their SHA-256 digest, shown once.

A token is 32 random bytes (``secrets.token_urlsafe``), so a fast unsalted hash
is enough: nobody can guess their way to a preimage, and a lookup by digest
is one indexed query per request.
"""

from __future__ import annotations

import hashlib
import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from dotsboxes.games.errors import GameError

from .models import ApiToken

TOKEN_PREFIX = "dbx_"
MAX_TOKENS = 5


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_create(*, user: AbstractBaseUser, name: str = "") -> tuple[ApiToken, str]:
    """A new token for ``user``; returns the row and the token (its only appearance)."""
    with transaction.atomic():
        active = ApiToken.objects.select_for_update().filter(user=user, revoked_at=None)
        if active.count() >= MAX_TOKENS:
            raise GameError(
                _("You already have %(n)d tokens: revoke one first.") % {"n": MAX_TOKENS}
            )
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        row = ApiToken.objects.create(
            user=user, name=" ".join(name.split())[:40], digest=digest(token), prefix=token[:10]
        )
    return row, token


def token_revoke(*, user: AbstractBaseUser, token_id: int) -> ApiToken:
    """Revoke one of ``user``'s tokens; it stops working at once."""
    row = ApiToken.objects.filter(user=user, pk=token_id).first()
    if row is None:
        raise GameError(_("There is no such token."))
    if row.revoked_at is None:
        row.revoked_at = timezone.now()
        row.save(update_fields=["revoked_at"])
    return row


def user_for_header(header: str) -> AbstractBaseUser | None:
    """The active user behind ``Authorization: Bearer <token>``, or None."""
    scheme, _sep, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 200:
        return None
    row = (
        ApiToken.objects.select_related("user")
        .filter(digest=digest(token), revoked_at=None, scope=ApiToken.Scope.BOT_PLAY)
        .first()
    )
    if row is None or not row.user.is_active:
        return None
    now = timezone.now()
    if row.last_used_at is None or (now - row.last_used_at).total_seconds() > 60:
        # At most one write a minute per token: the hot path stays a read.
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
    return row.user
