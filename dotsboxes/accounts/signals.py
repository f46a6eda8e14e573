"""Ratings follow games: a rated game that is saved as finished updates both players."""

from __future__ import annotations

from django.db.models.signals import post_save
from django.dispatch import receiver

from dotsboxes.games.models import Game

from .services import game_is_ratable, rating_apply_game


@receiver(post_save, sender=Game, dispatch_uid="accounts.ratings_follow_finished_games")
def apply_ratings_when_a_rated_game_finishes(sender, instance: Game, **kwargs) -> None:
    # Cheap check first: most saves are moves of unrated or unfinished games.
    if game_is_ratable(instance):
        rating_apply_game(game=instance)
