"""Issue 23.8: a move committed, then the database connection dies: never a 500.

With connections killed repeatedly (PostgreSQL ``pg_terminate_backend``), 15 moves were
stored and answered 500: reading the room back after the commit hit the dead
connection.  Here the connection is killed by an ``on_commit`` hook that runs first after
the move's commit (before the push and the answer are rendered).
"""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection, transaction
from django.db.models.signals import post_save
from django.test import Client

from dotsboxes.games.models import Game
from tests.rooms.conftest import act, join, open_room

pytestmark = pytest.mark.django_db(transaction=True)


def _kill_own_connection() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    db = connection.settings_dict
    dsn = psycopg.conninfo.make_conninfo(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or "",
        dbname=db["NAME"],
    )
    with psycopg.connect(dsn, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.fixture
def killed_after_commit():
    """Kill this thread's database connection right after the next game save commits."""
    armed = []

    def on_save(sender, instance, **kwargs):
        if armed and connection.in_atomic_block:
            armed.clear()
            transaction.on_commit(_kill_own_connection)

    post_save.connect(on_save, sender=Game, dispatch_uid="test-kill-after-commit")
    yield armed
    post_save.disconnect(sender=Game, dispatch_uid="test-kill-after-commit")


def test_a_move_whose_connection_dies_after_commit_is_answered_with_the_move(killed_after_commit):
    if connection.vendor != "postgresql":
        pytest.skip("kills a PostgreSQL backend (pg_terminate_backend)")
    alice, bob = Client(), Client()
    room = open_room(alice)
    join(bob, room)
    room.game.refresh_from_db()
    version = room.game.version
    killed_after_commit.append(True)
    response = act(alice, room, "move", edge="a1-b1")
    assert response.status_code == 200
    assert killed_after_commit == []  # the hook ran: the connection died after the commit
    game = Game.objects.get(pk=room.game.pk)
    assert game.version == version + 1
    assert list(game.moves.values_list("edge", flat=True)) == ["a1-b1"]
    # The answer is the room with the move (read again on a fresh connection), or the
    # plain success that makes the page fetch it: never an error the player would retry.
    body = response.content.decode()
    assert f'data-version="{version + 1}"' in body or response["HX-Trigger"] == "room-resync"
