"""What the API says about a game, a challenge and a player: plain JSON-ready dicts."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from dotsboxes.games.models import Game, Side
from dotsboxes.rooms.models import Room

from .models import BotAccount, Challenge


def bot_ids(user_ids: list[int | None]) -> set[int]:
    ids = [i for i in user_ids if i]
    return set(BotAccount.objects.filter(user_id__in=ids).values_list("user_id", flat=True))


def game_state(room: Room, user: AbstractBaseUser | None = None) -> dict:
    """The whole game as a bot needs it: moves in dot-pair notation, whose turn, the
    ``version`` to send with the next action, and the seats."""
    game: Game = room.game
    board = game.board()
    bots = bot_ids([game.blue_user_id, game.red_user_id])
    you = None
    if user is not None:
        you = next(
            (s for s in Side.values if getattr(game, f"{s}_user_id") == user.pk),
            None,
        )
    players = {}
    for side in Side.values:
        user_id = getattr(game, f"{side}_user_id")
        players[side] = {
            "name": game.name_of(Side(side)),
            "user": user_id is not None,
            "bot": user_id in bots,
        }
    return {
        "id": game.public_id,
        "version": game.version,
        "width": game.width,
        "height": game.height,
        "rated": game.rated,
        "timer_seconds": room.timer_seconds,
        "turn_deadline": room.turn_deadline.isoformat() if room.turn_deadline else None,
        "status": game.status,
        "result": game.result,
        "termination": game.termination,
        "to_move": Side.of(board.turn).value,
        "moves": [str(edge) for edge in board.move_stack],
        "scores": {"blue": board.scores[0], "red": board.scores[1]},
        "players": players,
        "you": you,
        "draw_offer": room.draw_offer,
        "url": room.get_absolute_url(),
    }


def challenge_state(challenge: Challenge) -> dict:
    return {
        "id": challenge.pk,
        "challenger": challenge.challenger.get_username(),
        "target": challenge.target.get_username(),
        "width": challenge.width,
        "height": challenge.height,
        "timer_seconds": challenge.timer_seconds,
        "rated": challenge.rated,
        "side": challenge.side,
        "status": challenge.shown_status,
        "game": challenge.game.public_id if challenge.game_id else None,
    }
