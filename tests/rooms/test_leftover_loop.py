"""A loop left running in the test thread (as Playwright's sync API leaves one for the
rest of a worker's session) must not drop the room pushes of the plain tests after it.

Both room-push tests that listen to a group failed in a full ``-n 2`` run when their
worker had run browser tests first; see ``_no_leftover_event_loop`` in tests/conftest.py.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.rooms.conftest import act, join, open_room


@pytest.fixture(scope="module")
def leftover_loop():
    """A loop marked as running in this thread, set up before any function's fixture,
    exactly as the browser tests' session-wide Playwright leaves it."""
    loop = asyncio.new_event_loop()
    asyncio._set_running_loop(loop)
    yield loop
    assert asyncio._get_running_loop() is loop  # put back after each test
    asyncio._set_running_loop(None)
    loop.close()


def test_a_move_reaches_the_room_after_a_loop_was_left_running(
    leftover_loop, transactional_db, alice, bob, listener
):
    assert asyncio._get_running_loop() is None  # hidden for the test
    room = open_room(alice, width=2, height=2)
    join(bob, room)
    channel = listener.listen(room)
    response = act(alice, room, "move", edge="a1-b1")
    assert response.status_code == 200
    html = listener.heard(channel)["html"]  # the push was sent, not dropped with a warning
    assert 'data-kind="game"' in html and "a1-b1" in html
