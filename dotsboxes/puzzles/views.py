"""The puzzle trainer: a board to answer on, checked against the stored proved line."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from dotsboxes import throttle
from dotsboxes.games.svg import board_svg
from dotsboxes.games.wording import player_name
from dotsboxes.guide.boards import diagram
from dotsboxes.rules import Edge
from dotsboxes.text import posted_edge

from . import services
from .models import Puzzle
from .themes import described

RESULT_KEY = "puzzle_result"  # a checked move, carried across the redirect of a plain form
HISTORY_PER_PAGE = 50


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """The puzzle in progress, else a new one near the player's rating."""
    state = request.session.get(services.STATE_KEY)
    unfinished = state and not state.get("done") and not state.get("streak")
    if unfinished and Puzzle.objects.filter(pk=state["id"], hidden=False).exists():
        return redirect("puzzles:puzzle", state["id"])
    return next_one(request)


@require_GET
def next_one(request: HttpRequest) -> HttpResponse:
    puzzle = services.next_puzzle(services.who_of(request))
    if puzzle is None:
        return render(request, "puzzles/none.html")
    request.session.pop(services.STATE_KEY, None)
    return redirect("puzzles:puzzle", puzzle.pk)


@require_http_methods(["GET", "POST"])
def streak(request: HttpRequest) -> HttpResponse:
    """Streak mode: puzzles one after another, each rated above the last; one miss ends it."""
    if request.method == "POST" or services.streak_state(request.session)["over"]:
        if request.method == "POST":
            services.streak_restart(request.session)
        else:
            return redirect(reverse("puzzles:puzzle", args=[_streak_current(request)]))
    state = request.session.get(services.STATE_KEY)
    if state and state.get("streak") and not state.get("done"):
        return redirect("puzzles:puzzle", state["id"])
    puzzle = services.streak_next(request.session)
    if puzzle is None:
        streak = services.streak_state(request.session)
        return render(request, "puzzles/none.html", {"streak": streak})
    request.session.pop(services.STATE_KEY, None)
    services.start(request.session, puzzle, streak=True)
    return redirect("puzzles:puzzle", puzzle.pk)


def _streak_current(request: HttpRequest) -> int:
    state = request.session.get(services.STATE_KEY) or {}
    return state.get("id") or services.streak_state(request.session)["seen"][-1]


@require_http_methods(["GET", "POST"])
def puzzle(request: HttpRequest, pk: int) -> HttpResponse:
    item = get_object_or_404(Puzzle, pk=pk)
    if item.hidden and not request.user.is_staff:
        raise Http404(gettext("No such puzzle."))
    who = services.who_of(request)
    state = request.session.get(services.STATE_KEY)
    streaking = bool(state and state.get("id") == item.pk and state.get("streak"))
    services.start(request.session, item, streak=streaking)
    result = None
    if request.method == "POST":
        wait = throttle.hit("puzzle", *throttle.request_keys(request))
        if wait:
            return throttle.too_many(request, wait)
        if "retry" in request.POST:
            services.puzzle_retry(request.session, item)
        else:
            outcome = services.puzzle_move(
                who=who,
                puzzle=item,
                step_text=request.POST.get("step", ""),
                edge_text=posted_edge(request.POST),
            )
            result = outcome.__dict__
            item.refresh_from_db()  # the attempt may have moved the puzzle's rating
        if not request.htmx:
            request.session[RESULT_KEY] = {"id": item.pk, "result": result}
            return redirect(reverse("puzzles:puzzle", args=[item.pk]) + "#answer")
    else:
        carried = request.session.pop(RESULT_KEY, None)
        if carried and carried.get("id") == item.pk:
            result = carried["result"]
    template = "puzzles/puzzle.html"
    if request.htmx and request.method == "POST":
        template += "#response"  # the trainer, and the verdict for the live region
    return render(request, template, _context(request, who, item, result))


def _context(request: HttpRequest, who, item: Puzzle, result: dict | None) -> dict:
    state = request.session[services.STATE_KEY]
    board = services.board_at(item, state["step"])
    player = services.board_at(item, 0).turn
    done = state["done"]
    title = gettext("Puzzle %(number)d") % {"number": item.pk}
    # Moves that count as right at this step: one, or a family of equally good ones.
    step = item.line[state["step"]] if state["step"] < len(item.line) else None
    best_count = len(step["accepted"]) if step else 1
    context = {
        "puzzle": item,
        "state": state,
        "result": result,
        "done": done,
        "turn_name": player_name(player),
        "rating": round(services.player_rating(who).rating),
        "puzzle_rating": round(item.rating),
        "show_themes": done or request.GET.get("themes") == "1",
        "themes": described(item.themes),
        "streak": services.streak_state(request.session) if state.get("streak") else None,
        "board_title": title,
        "best_count": best_count,
    }
    last = []
    if result and result.get("correct"):
        last = [Edge.parse(e) for e in [result["edge"], *result["replies"]]]
    # The play page's board: one tab stop, arrow keys and Enter (static/js/board.js),
    # each free edge a named button for screen readers; the typed field and the list
    # of edges below it are the same answer without JavaScript.
    context["svg"] = mark_safe(board_svg(board, interactive=not done, last_turn=last, title=title))
    context["legal"] = [] if done else [str(e) for e in board.legal_moves]
    if result and result.get("edge") and not result.get("correct") and not result.get("error"):
        after = services.board_at(item, state["step"])
        after.push(Edge.parse(result["edge"]))
        refuted = after.copy()
        for e in result["refutation"]:
            refuted.push(Edge.parse(e))
        context["refutation_svg"] = diagram(
            refuted,
            highlight=[Edge.parse(result["edge"])],
            last_turn=[Edge.parse(e) for e in result["refutation"]],
            title=gettext("The refutation"),
        )
    return context


@require_GET
def history(request: HttpRequest) -> HttpResponse:
    """Every rated attempt of the player, newest first, a page at a time."""
    who = services.who_of(request)
    page = Paginator(who.attempts().select_related("puzzle"), HISTORY_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "puzzles/history.html",
        {"attempts": page, "page": page, "rating": round(services.player_rating(who).rating)},
    )
