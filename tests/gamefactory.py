"""Real games for tests: moves chosen at random, applied through the rules."""

from __future__ import annotations

import random

from django.utils import timezone

from dotsboxes.games.models import Game, Move, Side
from dotsboxes.rules import Board


def played_game(
    *,
    width: int = 2,
    height: int = 2,
    edges: int | None = None,
    seed: int = 0,
    **fields,
) -> Game:
    """A game with ``edges`` random legal moves stored (all of them by default).

    A game played to the end is saved as finished with its result, unless
    ``fields`` say otherwise.
    """
    rng = random.Random(seed)
    board = Board(width, height)
    plies: list[tuple[str, Side]] = []
    limit = len(board.edges) if edges is None else edges
    while len(plies) < limit:
        side = Side.of(board.turn)
        edge = rng.choice(board.legal_moves)
        board.push(edge)
        plies.append((str(edge), side))
    if board.is_over():
        outcome = board.outcome()
        result = Game.Result.TIE if outcome.is_tie else Game.Result(Side.of(outcome.winner).value)
        fields = {
            "status": Game.Status.FINISHED,
            "result": result,
            "termination": Game.Termination.COMPLETED,
            "finished_at": timezone.now(),
            **fields,
        }
    game = Game.objects.create(width=width, height=height, **fields)
    Move.objects.bulk_create(
        Move(game=game, ply=n, edge=edge, side=side) for n, (edge, side) in enumerate(plies, 1)
    )
    return game
