"""The rooms' named browsers and room, shared with these tests."""

from tests.reliability.redis_server import own_redis  # noqa: F401
from tests.rooms.conftest import (  # noqa: F401
    _room_clock_off,
    _short_lived_connections,
    alice,
    bob,
    carol,
    room,
)
