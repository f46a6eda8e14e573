"""The core's loss on time: the side to move loses, one change event, ratings follow."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from dotsboxes.accounts.models import Rating, RatingChange
from dotsboxes.games import errors, seats, services
from dotsboxes.games.models import Game, Side

from .conftest import play


def test_the_side_to_move_loses_on_time_with_one_change_event(
    local_game, changes, django_capture_on_commit_callbacks
):
    game = play(local_game, "a1-b1")  # Red to move
    with django_capture_on_commit_callbacks(execute=True):
        services.game_lose_on_time(game=game, version=game.version)
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == ("finished", "blue", "time")
    assert game.get_termination_display() == "Lost on time"
    assert game.finished_at is not None
    assert [c.event for c in changes] == ["timeout"]
    assert changes[0].result == "blue" and changes[0].termination == "time"


def test_a_stale_version_or_a_finished_game_is_not_lost_on_time(local_game):
    game = play(local_game, "a1-b1")
    with pytest.raises(errors.StaleVersionError):
        services.game_lose_on_time(game=game, version=game.version - 1)
    services.game_lose_on_time(game=game, version=game.version)
    game.refresh_from_db()
    with pytest.raises(errors.GameOverError):
        services.game_lose_on_time(game=game, version=game.version)
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_rated_game_lost_on_time_moves_both_ratings_once(db):
    User = get_user_model()
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    game = services.game_create(
        actor=seats.Actor(),
        mode=Game.Mode.ONLINE,
        width=2,
        height=2,
        rated=True,
        blue=seats.Actor(user_id=alice.pk),
        red=seats.Actor(user_id=bob.pk),
    )
    assert Side.of(game.board().turn) == Side.BLUE
    services.game_lose_on_time(game=game, version=game.version)
    assert RatingChange.objects.filter(game=game).count() == 2
    assert Rating.objects.get(user=bob).wins == 1
    assert Rating.objects.get(user=alice).losses == 1
