"""Download my data: one zip with ``dotsboxes-data.json`` and each game's record.

Everything the site keeps about the player, and of other players only what the
player saw on the site anyway: the names at the board, public ratings before a
game, the standings of a tournament they played.  Never another player's email,
tokens, browser token, chat lines, notices, puzzle tries or rating history.
"""

from __future__ import annotations

import io
import json
import logging
import zipfile
from datetime import datetime

from django.db.models import Q

from dotsboxes import clock
from dotsboxes.accounts.models import Profile, Rating, RatingChange
from dotsboxes.analysis.models import GameAnalysis
from dotsboxes.api.models import ApiToken, BotAccount, Challenge
from dotsboxes.games.models import Game
from dotsboxes.games.records import record_text
from dotsboxes.guide.models import ExerciseProgress
from dotsboxes.notifications.models import Notification, Preferences
from dotsboxes.puzzles.models import PuzzleAttempt, PuzzleRating
from dotsboxes.rooms.models import Message, Room, VacationChoice, VacationDay
from dotsboxes.studies.models import Study
from dotsboxes.studies.notation import format_study
from dotsboxes.tournaments.models import Entry
from dotsboxes.tournaments.standings import standings

logger = logging.getLogger(__name__)

README = """dotsboxes: your data
====================

dotsboxes-data.json   everything the site keeps about your account, as JSON
games/<id>.txt        each of your games as a record in the site's text format:
                      paste one into "Import a game" on the site to replay it.
studies/<id>.txt      each of your studies in the studies' text format (import it
                      again on the studies page).

Other players appear only as the names you saw at the board.
"""


def _when(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _side_of(game: Game, user_id: int) -> str:
    return "blue" if game.blue_user_id == user_id else "red"


def _games(user) -> list[Game]:
    mine = Q(blue_user=user) | Q(red_user=user)
    return list(Game.objects.filter(mine).order_by("created_at", "id"))


def _game(game: Game, user_id: int, timers: dict[int, int]) -> dict:
    side = _side_of(game, user_id)
    return {
        "id": game.public_id,
        "record": f"games/{game.public_id}.txt",
        "size_boxes": [game.width, game.height],
        "mode": game.mode,
        "your_side": side,
        "blue": game.blue_name,
        "red": game.red_name,
        "rated": game.rated,
        "timer_seconds": timers.get(game.pk),
        "status": game.status,
        "result": game.result,
        "termination": game.termination,
        "hints_used": game.hints_used,
        "created_at": _when(game.created_at),
        "finished_at": _when(game.finished_at),
    }


def _ratings(user) -> dict:
    rating = Rating.objects.filter(user=user).first()
    history = RatingChange.objects.filter(user=user).select_related("game", "opponent")
    return {
        "current": None
        if rating is None
        else {
            "rating": rating.rating,
            "deviation": rating.deviation,
            "volatility": rating.volatility,
            "games": rating.games,
            "wins": rating.wins,
            "losses": rating.losses,
            "draws": rating.draws,
        },
        "history": [
            {
                "game": change.game.public_id,
                "opponent": change.opponent.username if change.opponent else None,
                "opponent_rating": change.opponent_rating,
                "score": change.score,
                "rating_before": change.rating_before,
                "rating_after": change.rating_after,
                "deviation_after": change.deviation_after,
                "at": _when(change.created_at),
            }
            for change in history.order_by("created_at", "id")
        ],
    }


def _analyses(games: list[Game]) -> list[dict]:
    ids = {g.pk: g.public_id for g in games}
    done = GameAnalysis.objects.filter(game_id__in=ids, status=GameAnalysis.Status.DONE)
    return [
        {
            "game": ids[a.game_id],
            "engine_version": a.engine_version,
            "at": _when(a.updated_at),
            "result": a.result,
        }
        for a in done.order_by("game_id", "engine_version")
    ]


def _puzzles(user) -> dict:
    rating = PuzzleRating.objects.filter(user=user).first()
    attempts = PuzzleAttempt.objects.filter(user=user).order_by("created_at", "id")
    return {
        "rating": None
        if rating is None
        else {
            "rating": rating.rating,
            "deviation": rating.deviation,
            "best_streak": rating.best_streak,
        },
        "attempts": [
            {
                "puzzle": a.puzzle_id,
                "solved": a.solved,
                "rating_before": a.rating_before,
                "rating_after": a.rating_after,
                "at": _when(a.created_at),
            }
            for a in attempts
        ],
        "practice": [
            {"exercise": p.exercise, "attempts": p.attempts, "solved": p.solved}
            for p in ExerciseProgress.objects.filter(user=user).order_by("exercise")
        ],
    }


def _tournaments(user) -> list[dict]:
    out = []
    for entry in Entry.objects.filter(user=user).select_related("tournament"):
        t = entry.tournament
        row = next((r for r in standings(t) if r.entry.pk == entry.pk), None)
        out.append(
            {
                "name": t.name,
                "kind": t.kind,
                "status": t.status,
                "starts_at": _when(t.starts_at),
                "joined_at": _when(entry.joined_at),
                "still_in": entry.active,
                "rank": row.rank if row else None,
                "score": row.score if row else None,
                "games_played": row.played if row else 0,
            }
        )
    return out


def _notices(user) -> list[dict]:
    notices = Notification.objects.filter(user=user).select_related("game")
    return [
        {
            "kind": n.kind,
            "game": n.game.public_id,
            "at": _when(n.created_at),
            "read_at": _when(n.read_at),
            "emailed_at": _when(n.emailed_at),
        }
        for n in notices.order_by("created_at", "id")
    ]


def collect(user) -> tuple[dict, list[Game]]:
    """The archive's JSON and the games whose records go beside it."""
    games = _games(user)
    timers = dict(Room.objects.filter(game__in=games).values_list("game_id", "timer_seconds"))
    profile = Profile.objects.filter(user=user).first()
    prefs = Preferences.objects.filter(user=user).first()
    vacation = VacationChoice.objects.filter(user=user).first()
    data = {
        "exported_at": _when(clock.now()),
        "account": {
            "name": user.username,
            "joined": _when(user.date_joined),
            "last_sign_in": _when(user.last_login),
            "email": user.email,
            "email_confirmed": bool(profile and profile.email_verified),
            "language": profile.language if profile else "",
            "bot": BotAccount.objects.filter(user=user).exists(),
        },
        "settings": {
            "email_notices": bool(prefs and prefs.email),
            "use_vacation_days": vacation.auto if vacation else True,
            "vacation_days_taken": [
                d.day.isoformat() for d in VacationDay.objects.filter(user=user)
            ],
        },
        "api_tokens": [
            {
                "name": t.name,
                "starts_with": t.prefix,
                "created_at": _when(t.created_at),
                "last_used_at": _when(t.last_used_at),
                "revoked_at": _when(t.revoked_at),
            }
            for t in ApiToken.objects.filter(user=user).order_by("created_at")
        ],
        "games": [_game(g, user.pk, timers) for g in games],
        "ratings": _ratings(user),
        "analyses": _analyses(games),
        "puzzles": _puzzles(user),
        "tournaments": _tournaments(user),
        "challenges": [
            {
                "from": c.challenger.username,
                "to": c.target.username,
                "status": c.shown_status,
                "at": _when(c.created_at),
                "game": c.game.public_id if c.game else None,
            }
            for c in Challenge.objects.filter(Q(challenger=user) | Q(target=user))
            .select_related("challenger", "target", "game")
            .order_by("created_at")
        ],
        "studies": [
            {
                "id": study.slug,
                "file": f"studies/{study.slug}.txt",
                "title": study.title,
                "visibility": study.visibility,
                "created_at": _when(study.created_at),
                "updated_at": _when(study.updated_at),
            }
            for study in Study.objects.filter(owner=user).order_by("created_at")
        ],
        "notifications": _notices(user),
        "chat_lines_you_wrote": [
            {"game": m.room.game.public_id, "text": m.text, "at": _when(m.created_at)}
            for m in Message.objects.filter(kind=Message.Kind.CHAT, author_key=f"u:{user.pk}")
            .select_related("room__game")
            .order_by("created_at", "id")
        ],
    }
    return data, games


def archive(user) -> bytes:
    """The zip, in memory (a player's data is small: a few KB a game)."""
    data, games = collect(user)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("README.txt", README)
        zf.writestr("dotsboxes-data.json", json.dumps(data, ensure_ascii=False, indent=1))
        for game in games:
            try:
                text = record_text(game)
            except ValueError:  # a stored game the notation cannot write: the rest still goes
                logger.exception("no record for game %s in a data archive", game.public_id)
                continue
            zf.writestr(f"games/{game.public_id}.txt", text)
        for study in Study.objects.filter(owner=user).prefetch_related("chapters"):
            try:
                text = format_study(study.as_notation())
            except ValueError:
                logger.exception("no text for study %s in a data archive", study.slug)
                continue
            zf.writestr(f"studies/{study.slug}.txt", text)
    return buffer.getvalue()
