"""Django's Redis cache with one connection pool per process.

Django keeps a cache object per async context, so under ASGI every request makes
a new :class:`~django.core.cache.backends.redis.RedisCache`, and each made its own
connection pool and opened its own connection.  Those objects die in reference
cycles, which only a full garbage collection frees, and a server freezes what
survives one (:mod:`dotsboxes.gcpolicy`): in the 300-games benchmark one web
process held 7,000 Redis connections after two minutes and Redis refused the next
("max number of clients reached").  Here every cache object of a process with the
same settings shares one client, hence one pool (thread-safe, as redis-py's are).
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple, RedisCacheClient] = {}
_lock = threading.Lock()


class SharedRedisCache(RedisCache):
    @cached_property
    def _cache(self) -> RedisCacheClient:
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            if key not in _clients:
                _clients[key] = self._class(self._servers, **self._options)
            return _clients[key]
