"""The contract with the rooms app: a rated room game that ends moves both ratings once."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from dotsboxes.accounts.models import Rating, RatingChange
from dotsboxes.games.models import Game
from dotsboxes.rooms import services as rooms
from dotsboxes.rooms.identity import Viewer

pytestmark = pytest.mark.django_db


def viewer(user) -> Viewer:
    return Viewer(user.pk, "", user.username, f"u:{user.pk}")


def test_resigning_a_rated_room_game_rates_both_players_once():
    User = get_user_model()
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    room = rooms.room_create(viewer=viewer(alice), width=2, height=2, host_side="blue", rated=True)
    rooms.room_join(public_id=room.game.public_id, viewer=viewer(bob))
    game = Game.objects.get(pk=room.game.pk)
    assert (game.blue_user, game.red_user, game.rated) == (alice, bob, True)
    rooms.room_resign(public_id=game.public_id, viewer=viewer(alice), version=game.version)
    assert RatingChange.objects.filter(game=game).count() == 2
    assert Rating.objects.get(user=bob).rating > 1500 > Rating.objects.get(user=alice).rating
    assert Rating.objects.get(user=bob).wins == 1


def test_an_unrated_room_game_leaves_ratings_alone():
    User = get_user_model()
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    room = rooms.room_create(viewer=viewer(alice), width=2, height=2, host_side="red")
    rooms.room_join(public_id=room.game.public_id, viewer=viewer(bob))
    game = Game.objects.get(pk=room.game.pk)
    rooms.room_resign(public_id=game.public_id, viewer=viewer(bob), version=game.version)
    assert not RatingChange.objects.exists()
