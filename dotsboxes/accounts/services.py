"""Rating updates: the one command that moves ratings, called when a rated game finishes."""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction

from dotsboxes.games.models import Game

from .glicko2 import update
from .models import Rating, RatingChange

logger = logging.getLogger(__name__)

#: Blue's score for each result of a finished game; Red's is one minus it.
BLUE_SCORE = {
    Game.Result.BLUE: 1.0,
    Game.Result.RED: 0.0,
    Game.Result.TIE: 0.5,
    Game.Result.DRAW: 0.5,
}


def game_is_ratable(game: Game) -> bool:
    """A rated, finished game with a result between two different signed-in players."""
    return bool(
        game.rated
        and game.status == Game.Status.FINISHED
        and game.blue_user_id
        and game.red_user_id
        and game.blue_user_id != game.red_user_id
        and game.result in BLUE_SCORE
    )


def rating_apply_game(*, game: Game) -> list[RatingChange]:
    """Update both players' ratings for ``game``, exactly once; return the new changes.

    Safe to call any number of times, from anywhere (the ``post_save`` receiver
    calls it): a game that is not ratable, or already applied, changes nothing
    and returns ``[]``.  Runs in the caller's transaction when there is one, so
    a game and its rating changes commit together.
    """
    if not game_is_ratable(game):
        return []
    try:
        with transaction.atomic():
            return _apply(game)
    except IntegrityError:
        # Another process applied this game between our check and our insert.
        logger.info("ratings for game %s were applied concurrently", game.public_id)
        return []


def _apply(game: Game) -> list[RatingChange]:
    blue_id, red_id = game.blue_user_id, game.red_user_id
    for user_id in sorted((blue_id, red_id)):
        Rating.objects.get_or_create(user_id=user_id)
    # Lock both rows in a fixed order: two games finishing at once queue instead
    # of deadlocking, and neither update is lost.
    locked = Rating.objects.select_for_update().filter(user_id__in=(blue_id, red_id))
    ratings = {r.user_id: r for r in locked.order_by("user_id")}
    if RatingChange.objects.filter(game=game).exists():
        return []
    blue, red = ratings[blue_id], ratings[red_id]
    blue_score = BLUE_SCORE[Game.Result(game.result)]
    before = {blue_id: blue.glicko2, red_id: red.glicko2}
    after = {
        blue_id: update(before[blue_id], [(before[red_id], blue_score)]),
        red_id: update(before[red_id], [(before[blue_id], 1 - blue_score)]),
    }
    changes = []
    for rating, opponent_id, score in ((blue, red_id, blue_score), (red, blue_id, 1 - blue_score)):
        old, new = before[rating.user_id], after[rating.user_id]
        changes.append(
            RatingChange(
                game=game,
                user_id=rating.user_id,
                opponent_id=opponent_id,
                score=score,
                rating_before=old.rating,
                rating_after=new.rating,
                deviation_before=old.deviation,
                deviation_after=new.deviation,
                volatility_after=new.volatility,
                opponent_rating=before[opponent_id].rating,
            )
        )
        rating.glicko2 = new
        rating.games += 1
        if score == 1:
            rating.wins += 1
        elif score == 0:
            rating.losses += 1
        else:
            rating.draws += 1
        rating.save()
    RatingChange.objects.bulk_create(changes)
    return changes
