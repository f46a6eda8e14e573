"""Two requests at the same moment: the row lock and the version let exactly one through.

Real threads, real transactions (``transactional_db``): on PostgreSQL the second
request waits on ``select_for_update``, on SQLite on the immediate transaction;
either way it then sees the version the first one bumped.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from dotsboxes.games import errors, services
from dotsboxes.games.models import Game

from .conftest import ALICE

pytestmark = pytest.mark.django_db(transaction=True)


def race(game: Game, edges: list[str]) -> list[str]:
    """Post each edge from its own thread with the same version, released together."""
    version = game.version
    gate = threading.Barrier(len(edges))
    outcomes: list[str] = []

    def click(edge: str) -> None:
        try:
            gate.wait()
            services.game_play_move(game=game.pk, edge=edge, version=version, actor=ALICE)
            outcomes.append("drawn")
        except errors.GameError as exc:
            outcomes.append(type(exc).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=click, args=(edge,)) for edge in edges]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return sorted(outcomes)


@pytest.mark.parametrize(
    "edges",
    [
        ["a1-b1", "a1-b1"],  # a double click
        ["a1-b1", "a2-b2"],  # two different edges from one stale page
        ["a1-b1", "a1-b1", "a2-b2", "c3-d3"],
    ],
)
def test_simultaneous_posts_of_one_version_draw_exactly_one_edge(edges):
    game = services.game_create(actor=ALICE, mode=Game.Mode.LOCAL, width=3, height=3)
    outcomes = race(game, edges)
    assert outcomes == ["StaleVersionError"] * (len(edges) - 1) + ["drawn"]
    game.refresh_from_db()
    assert game.version == 2 and game.moves.count() == 1
    assert game.moves.get().ply == 1
