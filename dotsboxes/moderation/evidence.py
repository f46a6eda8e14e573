"""Fair-play figures from the stored analyses: kept per game and player
(:class:`~.models.GameFigures`), added up over a player's recent rated games.

Figures are made from finished rated games whose current analysis is done; a
game analysed again (a newer engine) gets its figures made again.  The staff pages
call :func:`fill` before they read, so they never show a stale or missing game for
long; ``manage.py fairplay_figures`` fills the whole backlog.
"""

from __future__ import annotations

import statistics

from django.db import transaction
from django.db.models import Exists, OuterRef

from dotsboxes.analysis.models import GameAnalysis
from dotsboxes.engine import annotate
from dotsboxes.games.models import Game, Side

from . import fairplay
from .models import GameFigures

FILL_BATCH = 200  # games a staff page fills at most per request


def _times(game: Game) -> tuple[dict[int, float], set[int]]:
    """Seconds before each edge (since the previous one; the first: since the game
    began), and the plies the computer drew."""
    moves = list(game.moves.order_by("ply").values_list("ply", "created_at", "by_computer"))
    times, computer = {}, set()
    previous = game.created_at
    for ply, at, by_computer in moves:
        times[ply] = max(0.0, (at - previous).total_seconds())
        previous = at
        if by_computer:
            computer.add(ply)
    return times, computer


def figures_for(game: Game, analysis: GameAnalysis) -> list[GameFigures]:
    """Make (or remake) the figures of each signed-in player of ``game``."""
    entries = (analysis.result or {}).get("edges") or []
    times, computer = _times(game)
    made = []
    with transaction.atomic():
        GameFigures.objects.filter(game=game).delete()
        for side in Side.values:
            user_id = getattr(game, f"{side}_user_id")
            if not user_id:
                continue
            f = fairplay.game_figures(
                entries,
                side,
                width=game.width,
                height=game.height,
                by_computer=computer,
                times=times,
            )
            made.append(
                GameFigures.objects.create(
                    game=game,
                    analysis=analysis,
                    user_id=user_id,
                    side=side,
                    finished_at=game.finished_at or game.updated_at,
                    choices=f.choices,
                    matched=f.matched,
                    lost=f.lost,
                    exact=f.exact,
                    edges=f.edges,
                    median_time=statistics.median(f.times) if f.times else None,
                    times=[round(t, 1) for t in f.times],
                )
            )
    return made


def fill(limit: int = FILL_BATCH) -> int:
    """Make the figures of up to ``limit`` analysed rated games that lack them."""
    pending = (
        GameAnalysis.objects.filter(
            status=GameAnalysis.Status.DONE,
            engine_version=annotate.VERSION,
            game__rated=True,
            game__status=Game.Status.FINISHED,
        )
        .exclude(Exists(GameFigures.objects.filter(analysis=OuterRef("pk"))))
        .select_related("game")
        .order_by("-game__finished_at", "-pk")
    )
    done = 0
    for analysis in pending[: limit * 2]:
        if done >= limit:
            break
        game = analysis.game
        if analysis.game_version != game.version or not (game.blue_user_id or game.red_user_id):
            continue
        figures_for(game, analysis)
        done += 1
    return done


def recent(user_id: int, games: int = fairplay.RECENT_GAMES) -> list[GameFigures]:
    return list(
        GameFigures.objects.filter(user_id=user_id)
        .select_related("game")
        .order_by("-finished_at", "-id")[:games]
    )


def as_game(row: GameFigures) -> fairplay.GameFigures:
    return fairplay.GameFigures(
        choices=row.choices,
        matched=row.matched,
        lost=row.lost,
        exact=row.exact,
        edges=row.edges,
        times=list(row.times or []),
    )


def player_figures(user_id: int) -> fairplay.PlayerFigures:
    return fairplay.combine([as_game(row) for row in recent(user_id)])


def everyone() -> dict[int, fairplay.PlayerFigures]:
    """Every player with figures: their recent rated games added up."""
    rows: dict[int, list[GameFigures]] = {}
    for row in GameFigures.objects.order_by("user_id", "-finished_at", "-id").only(
        "user_id", "choices", "matched", "lost", "exact", "edges", "times"
    ):
        mine = rows.setdefault(row.user_id, [])
        if len(mine) < fairplay.RECENT_GAMES:
            mine.append(row)
    return {user_id: fairplay.combine([as_game(r) for r in mine]) for user_id, mine in rows.items()}
