"""Rated games between model players, stored with the analysis the engine would store:
every position of a 3 x 2 boxes game is solved exactly (milliseconds each), so each
edge's entry (best edges, boxes lost) is built from the solver's own values."""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.utils import timezone

from dotsboxes.accounts.models import Rating
from dotsboxes.analysis.models import GameAnalysis
from dotsboxes.engine import annotate, solver
from dotsboxes.games.models import Game, Move, Side
from dotsboxes.rules import Board


def pick(values: dict, best_rate: float, rng: random.Random):
    """A best edge with probability ``best_rate``, else any legal edge."""
    top = max(values.values())
    if rng.random() < best_rate:
        return rng.choice([e for e, v in values.items() if v == top])
    return rng.choice(list(values))


def rated_game(blue, red, rates: dict, rng: random.Random, *, width=3, height=2) -> Game:
    """A finished rated game between users ``blue`` and ``red`` who play a best edge with
    the probability ``rates[user.pk]``, stored with its moves and a done analysis."""
    board = Board(width, height)
    users = {"blue": blue, "red": red}
    entries, moves = [], []
    while not board.is_over():
        side = Side.of(board.turn).value
        values = solver.move_values(board)
        edge = pick(values, rates[users[side].pk], rng)
        top = max(values.values())
        best = sorted(str(e) for e, v in values.items() if v == top)
        ply = len(board.move_stack) + 1
        blue_boxes, red_boxes = board.scores
        margin = blue_boxes - red_boxes + (top if side == "blue" else -top)
        entries.append(
            {
                "ply": ply,
                "edge": str(edge),
                "side": side,
                "value": top,
                "exact": True,
                "played": values[edge],
                "played_exact": True,
                "lost": (top - values[edge]) // 2,
                "best": best,
                "mark": annotate.mark_for((top - values[edge]) // 2),
                "double_deal": False,
                "controller": None,
                "control": False,
                "margin": margin,
            }
        )
        moves.append((ply, str(edge), side))
        board.push(edge)
    blue_boxes, red_boxes = board.scores
    result = (
        Game.Result.BLUE
        if blue_boxes > red_boxes
        else Game.Result.RED
        if red_boxes > blue_boxes
        else Game.Result.TIE
    )
    game = Game.objects.create(
        mode=Game.Mode.ONLINE,
        width=width,
        height=height,
        rated=True,
        status=Game.Status.FINISHED,
        result=result,
        blue_user=blue,
        red_user=red,
        blue_name=blue.username,
        red_name=red.username,
        blue_score=blue_boxes,
        red_score=red_boxes,
        finished_at=timezone.now(),
    )
    Move.objects.bulk_create([Move(game=game, ply=p, edge=e, side=s) for p, e, s in moves])
    GameAnalysis.objects.create(
        game=game,
        game_version=game.version,
        engine_version=annotate.VERSION,
        status=GameAnalysis.Status.DONE,
        result={
            "version": annotate.VERSION,
            "width": width,
            "height": height,
            "start_key": "",
            "edges": entries,
            "margins": [
                *({"ply": e["ply"] - 1, "margin": e["margin"], "exact": True} for e in entries),
                {"ply": len(entries), "margin": blue_boxes - red_boxes, "exact": True},
            ],
            "players": annotate.summarise(entries),
            "exact_from": 0,
            "exact_undrawn": len(entries),
            "cpu_seconds": 0,
            "settings": {},
        },
    )
    return game


def make_population() -> tuple[list, object]:
    """24 ordinary players (best edge 30-60 % of the time, more for the higher rated) and
    one who plays the solver's best edge every time; 12 rated games each."""
    rng = random.Random(7)
    User = get_user_model()
    people, rates = [], {}
    for i in range(24):
        user = User.objects.create_user(f"player{i}")
        rating = 1300 + 20 * i
        Rating.objects.create(user=user, rating=rating)
        rates[user.pk] = 0.3 + 0.3 * i / 23
        people.append(user)
    cheat = User.objects.create_user("cheat")
    Rating.objects.create(user=cheat, rating=1520)
    rates[cheat.pk] = 1.0
    everyone = [*people, cheat]
    for _round in range(12):
        order = everyone[:]
        rng.shuffle(order)
        if len(order) % 2:
            order.append(rng.choice(people))
        for blue, red in zip(order[::2], order[1::2], strict=True):
            if blue != red:
                rated_game(blue, red, rates, rng)
    return people, cheat
