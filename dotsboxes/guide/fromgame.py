"""Learn from a finished game: its costly moves, and a retry of each position.

The solver runs in the engine's process pool (``dotsboxes.engine.pool``), not
in the request: the first visit starts the review and shows a short "checking"
page that reloads itself; the result is kept in the cache, keyed by the game
and its version, and the retry page checks answers against the stored values.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from dotsboxes import throttle
from dotsboxes.engine import pool
from dotsboxes.games.models import Game, Side
from dotsboxes.games.presenters import edge_error
from dotsboxes.rules import RulesError

from .boards import clickable, diagram, try_url
from .review import BUDGET_PER_POSITION, TOTAL_BUDGET, review_moves

log = logging.getLogger(__name__)

REVIEW_TTL = 60 * 60 * 24
PENDING_TTL = 120  # a review that has not answered by then is started again
MODES = (Game.Mode.COMPUTER, Game.Mode.LOCAL)


def _key(game: Game) -> str:
    return f"guide:review:{game.public_id}:{game.version}"


def _player_plies(game: Game, moves: list) -> list[int]:
    """0-based indexes of the moves made by a person (both sides on one device)."""
    computer = game.computer_side if game.mode == Game.Mode.COMPUTER else ""
    return [i for i, m in enumerate(moves) if not m.by_computer and m.side != computer]


def _store(key: str, future: Future) -> None:
    try:
        result = future.result()
    except Exception:  # a crashed worker must not leave the page waiting forever
        log.exception("game review failed for %s", key)
        result = {"checked": {}, "complete": False, "error": True}
    cache.set(key, result, REVIEW_TTL)
    cache.delete(key + ":pending")


def _start_review(game: Game, moves: list) -> None:
    key = _key(game)
    if not cache.add(key + ":pending", 1, PENDING_TTL):
        return  # another request started it
    future = pool.submit_background(
        review_moves,
        game.start_board().key(),
        [m.edge for m in moves],
        _player_plies(game, moves),
        budget=BUDGET_PER_POSITION,
        total=TOTAL_BUDGET,
    )
    future.add_done_callback(lambda f: _store(key, f))


def _game_or_reason(public_id: str) -> tuple[Game, str]:
    game = get_object_or_404(Game, public_id=public_id)
    if game.mode not in MODES:
        return game, gettext(
            "Learning from a game works for games against the computer or on one device."
        )
    if game.status != Game.Status.FINISHED:
        return game, gettext("This game is not finished yet: come back when it is over.")
    return game, ""


def _mistakes(game: Game, moves: list, review: dict) -> list[dict]:
    rows = []
    for ply_key, entry in sorted(review["checked"].items(), key=lambda kv: int(kv[0])):
        ply = int(ply_key)
        values = entry["values"]
        best = max(values.values())
        played = values[entry["played"]]
        if played < best:
            side = Side(moves[ply].side)
            rows.append(
                {
                    "ply": ply,
                    "number": ply + 1,
                    "side": side.value,
                    "name": game.label_of(side),
                    "played": entry["played"],
                    "lost": (best - played) // 2,
                    "best": sorted(e for e, v in values.items() if v == best),
                    "retry_url": reverse("guide:from_game_retry", args=[game.public_id, ply]),
                }
            )
    return rows


@require_http_methods(["GET"])
def from_game(request: HttpRequest, public_id: str) -> HttpResponse:
    game, reason = _game_or_reason(public_id)
    back = reverse("games:game", args=[game.public_id]) if game.mode in MODES else ""
    context = {"game": game, "reason": reason, "back": back}
    if reason:
        return render(request, "guide/from_game.html", context)
    moves = list(game.moves.order_by("ply"))
    review = cache.get(_key(game))
    if review is None:
        if cache.get(_key(game) + ":pending") is None:  # this visit would start the engine
            wait = throttle.hit("analysis", *throttle.request_keys(request))
            if wait:
                return throttle.too_many(request, wait)
        _start_review(game, moves)
        context["pending"] = True
    else:
        plies = _player_plies(game, moves)
        context.update(
            mistakes=_mistakes(game, moves, review),
            checked=len(review["checked"]),
            considered=len(plies),
            complete=review["complete"] and not review.get("error"),
            error=review.get("error", False),
        )
    template = "guide/from_game.html"
    if request.htmx:
        template += "#review"
    return render(request, template, context)


@require_http_methods(["GET", "POST"])
def retry(request: HttpRequest, public_id: str, ply: int) -> HttpResponse:
    game, reason = _game_or_reason(public_id)
    review = None if reason else cache.get(_key(game))
    entry = (review or {}).get("checked", {}).get(ply)
    if entry is None:
        if reason:
            raise Http404(reason)
        return redirect("guide:from_game", public_id=game.public_id)
    board = game.board(ply=ply)
    values = entry["values"]
    best = max(values.values())
    result, error = None, ""
    if request.method == "POST":
        text = (request.POST.get("edge") or "").strip()
        try:
            edge = board.parse_edge(text)
            if board.is_drawn(edge):
                error = gettext(
                    "%(edge)s is already drawn: pick an edge that is still missing."
                ) % {"edge": edge}
            else:
                value = values[str(edge)]
                result = {
                    "answer": str(edge),
                    "correct": value == best,
                    "lost": (best - value) // 2,
                    "best": sorted(e for e, v in values.items() if v == best),
                }
        except RulesError as exc:
            error = (
                edge_error(text, exc)
                if text
                else gettext("Click an edge on the board, or type one like a1-b1.")
            )
    solved = bool(result and result["correct"])
    highlight = result["best"] if solved else ()
    context = {
        "game": game,
        "ply": ply,
        "number": ply + 1,
        "played": entry["played"],
        "side": board.turn.name.lower(),
        "name": game.label_of(board.turn),
        "result": result,
        "error": error,
        "solved": solved,
        "svg": diagram(board, highlight=highlight, title=gettext("The position before the move")),
        "pick": None if solved else clickable(board, title=gettext("The position before the move")),
        "scores": board.scores,
        "try_url": try_url(board),
    }
    template = "guide/retry.html"
    if request.htmx and request.method == "POST":
        template += "#exercise"
    return render(request, template, context)
