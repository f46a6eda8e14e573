"""Learn from a finished game: its costly moves, and a retry of each position.

The game's stored analysis (:mod:`dotsboxes.analysis`, run in the engine's
background lane and kept in the database) values every edge: the first visit
asks for it and shows a short "checking" page that refreshes itself.  Every
move of a person that gave boxes away is listed, from the first edge to the
last.  A retry checks the answer against the analysis's best edges, and
against the analysis board's values of the position (asked for when the retry
page opens) for any other answer.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from dotsboxes import throttle
from dotsboxes.analysis import board as board_values
from dotsboxes.analysis import scheduling
from dotsboxes.analysis import services as analyses
from dotsboxes.analysis.models import GameAnalysis
from dotsboxes.games.identity import browser_token
from dotsboxes.games.models import Game, Side
from dotsboxes.games.wording import edge_error
from dotsboxes.rules import RulesError

from .boards import clickable, diagram, try_url

MODES = (Game.Mode.COMPUTER, Game.Mode.LOCAL)


def _player_plies(game: Game, moves: list) -> list[int]:
    """0-based indexes of the moves made by a person (both sides on one device)."""
    computer = game.computer_side if game.mode == Game.Mode.COMPUTER else ""
    return [i for i, m in enumerate(moves) if not m.by_computer and m.side != computer]


def _analysis(game: Game, owner: str) -> GameAnalysis:
    """The game's stored analysis, asked for if there is none (or it failed)."""
    analysis = analyses.current(game)
    if analysis is None or analysis.status == GameAnalysis.Status.FAILED:
        analysis = analyses.request_analysis(game, owner)
    return analysis


def _game_or_reason(public_id: str) -> tuple[Game, str]:
    game = get_object_or_404(Game, public_id=public_id)
    if game.mode not in MODES:
        return game, gettext(
            "Learning from a game works for games against the computer or on one device."
        )
    if game.status != Game.Status.FINISHED:
        return game, gettext("This game is not finished yet: come back when it is over.")
    if not game.moves.exists():
        return game, gettext("No edge was drawn in this game.")
    return game, ""


def _mistakes(game: Game, moves: list, entries: list[dict]) -> list[dict]:
    rows = []
    for ply in _player_plies(game, moves):
        entry = entries[ply]
        if entry["lost"] > 0:
            side = Side(moves[ply].side)
            rows.append(
                {
                    "ply": ply,
                    "number": ply + 1,
                    "side": side.value,
                    "name": game.label_of(side),
                    "played": entry["edge"],
                    "lost": entry["lost"],
                    "exact": entry["exact"] and entry["played_exact"],
                    "best": entry["best"],
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
    if analyses.current(game) is None:  # this visit would start the engine
        wait = throttle.hit("analysis", *throttle.request_keys(request))
        if wait:
            return throttle.too_many(request, wait)
    analysis = _analysis(game, scheduling.owner_of_request(request))
    if analysis.status != GameAnalysis.Status.DONE:
        context.update(pending=True, done=analysis.done, total=analysis.total)
    else:
        moves = list(game.moves.order_by("ply"))
        result = analysis.result
        context.update(
            mistakes=_mistakes(game, moves, result["edges"]),
            considered=len(_player_plies(game, moves)),
            exact_from=result["exact_from"] + 1,
            analysis_url=reverse("analysis:game", args=[game.public_id]),
        )
    template = "guide/from_game.html"
    if request.htmx:
        template += "#review"
    return render(request, template, context)


@require_http_methods(["GET", "POST"])
def retry(request: HttpRequest, public_id: str, ply: int) -> HttpResponse:
    game, reason = _game_or_reason(public_id)
    analysis = None if reason else analyses.current(game)
    if analysis is None or analysis.status != GameAnalysis.Status.DONE:
        if reason:
            raise Http404(reason)
        return redirect("guide:from_game", public_id=game.public_id)
    entries = analysis.result["edges"]
    if not 0 <= ply < len(entries):
        raise Http404(gettext("There is no such edge in this game."))
    entry = entries[ply]
    board = game.board(ply=ply)
    # The values of every answer come from the analysis board's pass over this
    # position, started now (in the engine's pool) while the player thinks.
    key = board.key()
    board_values.ensure(key, browser_token(request, create=True))
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
                result = _verdict(str(edge), entry, board_values.values(key))
                if result is None:
                    error = gettext("Still checking that edge: try it again in a moment.")
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
        "played": entry["edge"],
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
        template += "#response"  # the exercise, and the verdict for the live region
    return render(request, template, context)


def _verdict(answer: str, entry: dict, found: dict | None) -> dict | None:
    """Whether ``answer`` keeps the value, and the boxes it gives away (None: not known yet)."""
    best = entry["best"]
    scores = (found or {}).get("values")
    usable = bool(scores) and (found.get("exact") or found.get("level") == "deep")
    if entry["exact"] and answer in best:
        lost = 0
    elif usable and answer in scores:
        top = max(scores.values())
        best = sorted(e for e, v in scores.items() if v == top)
        lost = (top - scores[answer]) // 2
    elif answer == entry["edge"]:
        lost = entry["lost"]
    elif answer in best:
        lost = 0
    else:
        return None
    return {"answer": answer, "correct": lost == 0, "lost": lost, "best": best}
