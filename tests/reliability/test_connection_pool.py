"""No exception path keeps a request's database connection (a leak emptied the pool)."""

from __future__ import annotations

import pytest
from channels.testing import HttpCommunicator
from django.core.signals import request_finished
from django.db import connection

from dotsboxes.asgi import OneThreadPerRequestHandler
from tests.rooms.test_consumers import own_loop

ROUNDS = 15  # more than the pool's default 10 connections


def pool_in_use() -> int | None:
    pool = getattr(connection, "pool", None)
    if pool is None:
        return None
    stats = pool.get_stats()
    return stats["pool_size"] - stats["pool_available"]


@pytest.mark.django_db(transaction=True)
@own_loop
async def test_a_request_whose_error_page_fails_still_gives_its_connection_back(settings):
    settings.ROOT_URLCONF = "tests.reliability.failing_urls"
    settings.DEBUG = False
    finished = []

    def on_finished(**kwargs):
        finished.append(1)

    request_finished.connect(on_finished)
    try:
        app = OneThreadPerRequestHandler()
        before = pool_in_use()
        for _ in range(ROUNDS):
            communicator = HttpCommunicator(
                app, "GET", "/broken", headers=[(b"host", b"testserver")]
            )
            response = await communicator.get_response(timeout=25)
            await communicator.wait(timeout=5)  # the handler ends: the response is closed
            assert response["status"] == 500
            assert b"Traceback" not in response["body"]
    finally:
        request_finished.disconnect(on_finished)
    # request_finished is what closes a request's connections (and returns them to the pool).
    assert len(finished) == ROUNDS
    if before is not None:  # PostgreSQL with psycopg's pool: nothing is left checked out
        assert pool_in_use() <= before
