"""Ratings move exactly once, when a rated game between two players finishes."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from dotsboxes.accounts.models import Rating, RatingChange
from dotsboxes.accounts.services import rating_apply_game
from dotsboxes.games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    return get_user_model().objects.create_user("alice", password="a-long-secret-1")


@pytest.fixture
def bob():
    return get_user_model().objects.create_user("bob", password="a-long-secret-2")


def online_game(blue, red, **fields) -> Game:
    defaults = {
        "mode": Game.Mode.ONLINE,
        "rated": True,
        "blue_user": blue,
        "red_user": red,
        "blue_name": getattr(blue, "username", "Blue"),
        "red_name": getattr(red, "username", "Red"),
    }
    return Game.objects.create(**(defaults | fields))


def finish(game: Game, result: str) -> Game:
    game.status, game.result = Game.Status.FINISHED, result
    game.termination = Game.Termination.COMPLETED
    game.finished_at = timezone.now()
    game.save()
    return game


def test_a_player_without_games_has_the_default_rating(alice):
    rating = Rating.objects.create(user=alice)
    assert (rating.rating, rating.deviation, rating.volatility) == (1500, 350, 0.06)
    assert rating.display == "1500?" and rating.is_provisional


def test_finishing_a_rated_game_moves_both_ratings_through_the_signal(alice, bob):
    game = online_game(alice, bob)
    assert not RatingChange.objects.exists()
    finish(game, Game.Result.BLUE)
    winner, loser = Rating.objects.get(user=alice), Rating.objects.get(user=bob)
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert (winner.games, winner.wins, loser.games, loser.losses) == (1, 1, 1, 1)
    change = RatingChange.objects.get(game=game, user=alice)
    assert (change.rating_before, change.score, change.opponent) == (1500, 1.0, bob)
    assert change.rating_after == winner.rating and change.delta > 0


def test_saving_a_finished_game_again_does_not_rate_it_twice(alice, bob):
    game = finish(online_game(alice, bob), Game.Result.RED)
    after_first = Rating.objects.get(user=bob).rating
    game.version += 1
    game.save()
    finish(game, Game.Result.RED)
    assert rating_apply_game(game=game) == []
    assert Rating.objects.get(user=bob).rating == after_first
    assert RatingChange.objects.filter(game=game).count() == 2
    assert Rating.objects.get(user=bob).games == 1


@pytest.mark.parametrize("result", [Game.Result.TIE, Game.Result.DRAW])
def test_a_tie_or_an_agreed_draw_counts_half_a_point(alice, bob, result):
    Rating.objects.create(user=alice, rating=1700, deviation=80)
    Rating.objects.create(user=bob, rating=1500, deviation=80)
    finish(online_game(alice, bob), result)
    stronger, weaker = Rating.objects.get(user=alice), Rating.objects.get(user=bob)
    assert stronger.rating < 1700 and weaker.rating > 1500  # a draw favours the weaker
    assert stronger.draws == weaker.draws == 1
    assert set(RatingChange.objects.values_list("score", flat=True)) == {0.5}


def test_a_second_game_starts_from_the_first_games_ratings(alice, bob):
    finish(online_game(alice, bob), Game.Result.BLUE)
    middle = Rating.objects.get(user=alice).rating
    game = finish(online_game(bob, alice), Game.Result.RED)
    change = RatingChange.objects.get(game=game, user=alice)
    assert change.rating_before == middle
    assert Rating.objects.get(user=alice).games == 2


@pytest.mark.parametrize(
    "change",
    [
        {"rated": False},
        {"red_user": None},
        {"status": Game.Status.ABORTED},
        {"status": Game.Status.ACTIVE},
        {"result": ""},
    ],
)
def test_unrated_unfinished_or_one_sided_games_leave_ratings_alone(alice, bob, change):
    game = online_game(alice, bob)
    game.status, game.result = Game.Status.FINISHED, Game.Result.BLUE
    for name, value in change.items():
        setattr(game, name, value)
    game.save()
    assert rating_apply_game(game=game) == []
    assert not RatingChange.objects.exists()


def test_a_game_against_yourself_is_not_rated(alice):
    finish(online_game(alice, alice), Game.Result.BLUE)
    assert not RatingChange.objects.exists()


def test_the_service_can_be_called_directly_and_only_counts_once(alice, bob):
    game = online_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, result="blue")
    game.refresh_from_db()  # a queryset update sends no signal: the service catches up
    assert not RatingChange.objects.exists()
    assert len(rating_apply_game(game=game)) == 2
    assert rating_apply_game(game=game) == []
    assert Rating.objects.get(user=alice).games == 1


def test_the_catch_up_command_rates_games_finished_without_a_signal(alice, bob):
    first, second = online_game(alice, bob), online_game(bob, alice)
    for game in (first, second):
        Game.objects.filter(pk=game.pk).update(status="finished", result="tie")
    out = StringIO()
    call_command("apply_ratings", stdout=out)
    assert out.getvalue().strip() == "Rated 2 games."
    assert Rating.objects.get(user=alice).games == 2
    call_command("apply_ratings", stdout=out)
    assert out.getvalue().strip().endswith("Rated 0 games.")
