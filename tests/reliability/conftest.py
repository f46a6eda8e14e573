"""The rooms' named browsers and room, shared with these tests."""

from tests.rooms.conftest import (  # noqa: F401
    _room_clock_off,
    _short_lived_connections,
    alice,
    bob,
    carol,
    room,
)
