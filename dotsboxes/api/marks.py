"""Which accounts are bots, read cheaply enough for every name a page shows.

The ids of all bot accounts are few and a bot's status never changes back, so
they are kept in the cache for a minute; a bot made since is a fresh account
with no games yet, so no room or list could be showing it stale.  With the
cache down the database answers.
"""

from __future__ import annotations

import contextlib
import logging

from django.core.cache import cache
from django.db import connection

from .models import BotAccount

logger = logging.getLogger(__name__)


def _key() -> str:
    # Per database: processes of one site share the entry, while test databases (and a
    # test's live servers) that share one Redis never read each other's ids.
    return f"api:bot-ids:{connection.settings_dict['NAME']}"


def bot_ids() -> frozenset[int]:
    try:
        found = cache.get(_key())
    except Exception:
        logger.warning("bot ids: cache unavailable", exc_info=True)
        found = None
    if found is None:
        found = frozenset(BotAccount.objects.values_list("user_id", flat=True))
        with contextlib.suppress(Exception):
            cache.set(_key(), found, timeout=60)
    return found


def forget() -> None:
    """A bot was made: read the ids afresh (in this process; others within a minute)."""
    try:
        cache.delete(_key())
    except Exception:
        logger.warning("bot ids: cache unavailable", exc_info=True)
