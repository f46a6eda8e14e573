"""Two processes finishing games at once: ratings lose no update and count no game twice.

Real threads with their own database connections; PostgreSQL only, where row locks
are real (SQLite serialises every write transaction anyway).
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from dotsboxes.accounts.models import Rating, RatingChange
from dotsboxes.accounts.services import rating_apply_game
from dotsboxes.games.models import Game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]


def finished(blue, red) -> Game:
    game = Game.objects.create(mode=Game.Mode.ONLINE, rated=True, blue_user=blue, red_user=red)
    # A queryset update sends no signal, so the threads below do all the rating.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, result="blue")
    game.refresh_from_db()
    return game


def run_together(*games: Game) -> list:
    barrier = threading.Barrier(len(games))
    results: list = []
    errors: list = []

    def worker(game: Game) -> None:
        try:
            barrier.wait(timeout=10)
            results.append(len(rating_apply_game(game=game)))
        except Exception as exc:  # reported below, in the test's own thread
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not errors, errors
    return results


def test_the_same_game_applied_twice_at_once_counts_once():
    User = get_user_model()
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    game = finished(alice, bob)
    assert sorted(run_together(game, Game.objects.get(pk=game.pk))) == [0, 2]
    assert RatingChange.objects.filter(game=game).count() == 2
    assert Rating.objects.get(user=alice).games == 1


def test_two_games_of_one_player_finishing_at_once_both_count():
    User = get_user_model()
    alice, bob, carol = (User.objects.create_user(n) for n in ("alice", "bob", "carol"))
    first, second = finished(alice, bob), finished(alice, carol)
    assert run_together(first, second) == [2, 2]
    rating = Rating.objects.get(user=alice)
    assert (rating.games, rating.wins) == (2, 2)
    changes = RatingChange.objects.filter(user=alice).order_by("id")
    assert changes[1].rating_before == changes[0].rating_after  # the second saw the first
