"""The Learn section: rules, strategy guide, studies, practice, learning from a game."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from dotsboxes.games.explain import position_facts
from dotsboxes.games.history import edge_list_html
from dotsboxes.games.wording import edge_error, outcome_text, player_name
from dotsboxes.rules import Board, RulesError, parse_record
from dotsboxes.studies.models import Study
from dotsboxes.text import posted_edge

from . import progress as progress_store
from .answers import move_values
from .boards import clickable, diagram
from .exercises import BY_SLUG as EXERCISES
from .exercises import EXERCISES as ALL_EXERCISES
from .exercises import TRACK_NAMES, TRACKS, Exercise, next_exercise, track_exercises
from .lessons import rules_figures, strategy_figures
from .studies import BY_SLUG as STUDIES
from .studies import STUDIES as ALL_STUDIES
from .texts import local

RESULT_KEY = "guide_result"  # a checked answer, carried across the redirect of a plain form
BUILD_KEY = "guide_build"  # edges drawn so far in each "draw a box" exercise


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    progress = progress_store.progress_for(request)
    done = progress_store.summary(progress, [e.slug for e in ALL_EXERCISES])
    return render(request, "guide/index.html", {"done": done, "studies": ALL_STUDIES})


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "guide/rules.html", {"fig": rules_figures()})


@require_GET
def strategy(request: HttpRequest) -> HttpResponse:
    return render(request, "guide/strategy.html", {"fig": strategy_figures()})


@require_GET
def studies(request: HttpRequest) -> HttpResponse:
    levels: dict[str, list] = {}
    for study in ALL_STUDIES:
        levels.setdefault(study.level, []).append(
            {"study": study, "svg": diagram(study.board, title=local(study.title))}
        )
    # Players' studies the staff chose to show here (still public and listed).
    featured = Study.objects.filter(
        featured=True, visibility=Study.Visibility.PUBLIC, unlisted_by_staff=False
    ).select_related("owner")[:20]
    return render(request, "guide/studies.html", {"levels": levels, "featured": featured})


@require_GET
def studies_text(request: HttpRequest) -> HttpResponse:
    """The guide's studies as one study text, to import at /studies/new and change."""
    from dotsboxes.studies.notation import format_study

    from .as_study import guide_study

    response = HttpResponse(format_study(guide_study()), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="guide-studies.txt"'
    return response


@require_GET
def study(request: HttpRequest, slug: str) -> HttpResponse:
    item = STUDIES.get(slug)
    if item is None:
        raise Http404(gettext("No such study."))
    index = ALL_STUDIES.index(item)
    revealed = request.GET.get("answer") == "1"
    highlight = item.best if item.kind == "move" else ()
    return render(
        request,
        "guide/study.html",
        {
            "study": item,
            "number": index + 1,
            "count": len(ALL_STUDIES),
            "svg": diagram(
                item.board, title=gettext("Study: %(title)s") % {"title": local(item.title)}
            ),
            "answer_svg": diagram(item.board, highlight=highlight, title=gettext("The answer")),
            "revealed": revealed,
            "margin": abs(item.value),
            "facts": position_facts(item.board),
            "previous": ALL_STUDIES[index - 1] if index > 0 else None,
            "next": ALL_STUDIES[index + 1] if index + 1 < len(ALL_STUDIES) else None,
        },
    )


@require_GET
def practice(request: HttpRequest) -> HttpResponse:
    progress = progress_store.progress_for(request)
    tracks = []
    for slug, name, blurb in TRACKS:
        items = track_exercises(slug)
        tracks.append(
            {
                "slug": slug,
                "name": gettext(name),
                "blurb": gettext(blurb),
                "summary": progress_store.summary(progress, [e.slug for e in items]),
                "exercises": [(e, progress.get(e.slug)) for e in items],
            }
        )
    overall = progress_store.summary(progress, [e.slug for e in ALL_EXERCISES])
    return render(request, "guide/practice.html", {"tracks": tracks, "overall": overall})


def _build_step(request: HttpRequest, exercise: Exercise, data) -> tuple[dict | None, str]:
    """One step of a "draw a box" exercise: draw a side, start again, or answer."""
    drawn = list(request.session.get(BUILD_KEY, {}).get(exercise.slug, []))
    board = exercise.built(drawn)
    if "reset" in data:
        drawn = []
    elif "choice" in data:
        if board.owner(exercise.box) is None:
            return None, gettext("Draw all four sides of the box first.")
        choice = (data.get("choice") or "").strip().lower()
        labels = dict(exercise.choices)
        if choice not in labels:
            return None, gettext("Choose one of the answers.")
        correct = exercise.correct_choice(board)
        return {
            "correct": choice == correct,
            "answer": labels[choice],
            "best": [labels[correct]],
            "lost": 0,
        }, ""
    else:
        text = posted_edge(data)
        try:
            edge = board.parse_edge(text)
        except RulesError as exc:
            return None, edge_error(text, exc) if text else gettext("Click a side of the left box.")
        if str(edge) not in exercise.box_sides():
            return None, gettext("%(edge)s is not a side of the left box.") % {"edge": edge}
        if board.is_drawn(edge):
            return None, gettext("%(edge)s is already drawn.") % {"edge": edge}
        drawn.append(str(edge))
    state = dict(request.session.get(BUILD_KEY, {}))
    state[exercise.slug] = drawn
    request.session[BUILD_KEY] = state
    return None, ""


def _check(exercise: Exercise, data) -> tuple[dict | None, str]:
    """Check one submitted answer; return (result, error message)."""
    if exercise.kind == "edge":
        text = posted_edge(data)
        if not text:
            return None, gettext("Click an edge on the board, or type one like a1-b1.")
        try:
            edge = exercise.board.parse_edge(text)
        except RulesError as exc:
            return None, edge_error(text, exc)
        if exercise.board.is_drawn(edge):
            return None, gettext(
                "%(edge)s is already drawn: pick an edge that is still missing."
            ) % {"edge": edge}
        values = move_values(exercise)
        best = max(values.values())
        value = values[str(edge)]
        lost = (best - value) // 2
        return {
            "correct": value == best,
            "answer": str(edge),
            "best": sorted(e for e, v in values.items() if v == best),
            "lost": lost,
        }, ""
    choice = (data.get("choice") or "").strip().lower()
    labels = dict(exercise.choices)
    if choice not in labels:
        return None, gettext("Choose one of the answers.")
    return {
        "correct": choice == exercise.correct_choice(),
        "answer": labels[choice],
        "best": [labels[exercise.correct_choice()]],
        "lost": 0,
    }, ""


def _exercise_context(request: HttpRequest, exercise: Exercise, result, error: str) -> dict:
    board = exercise.board
    building = exercise.kind == "build"
    if building:
        board = exercise.built(request.session.get(BUILD_KEY, {}).get(exercise.slug, []))
    progress = progress_store.progress_for(request)
    highlight: list[str] = []
    if exercise.kind not in ("edge", "build"):
        highlight = [exercise.edge]  # the edge the question is about
    elif result and result["correct"] and exercise.kind == "edge":
        highlight = result["best"]  # every move of optimal value
    title = gettext("Exercise: %(title)s") % {"title": local(exercise.title)}
    context = {
        "exercise": exercise,
        "track_name": gettext(TRACK_NAMES[exercise.track]),
        "result": result,
        "error": error,
        "entry": progress.get(exercise.slug),
        "next": next_exercise(exercise),
        "board_title": title,
        "svg": diagram(board, highlight=highlight, title=title),
        "solved": bool(result and result["correct"]),
        "turn_name": player_name(board.turn),
        "board": board,
    }
    if building:
        finished = board.owner(exercise.box) is not None
        context["box_finished"] = finished
        context["sides_left"] = sum(
            1 for e in board.box_edges(exercise.box) if not board.is_drawn(e)
        )
        if not finished:
            context["pick"] = clickable(board, only=exercise.box_sides(), title=title)
    if exercise.kind == "edge" and not context["solved"]:
        context["pick"] = clickable(board, title=title)
    if exercise.record:
        context["replay"] = _replay_context(request, exercise)
    return context


def _replay_context(request: HttpRequest, exercise: Exercise) -> dict:
    """The replay strip of a replay exercise: the game at any ply (``?ply=``)."""
    game = parse_record(exercise.record)
    edges = game.edges
    try:
        ply = int(request.GET.get("ply", exercise.ply + 1))
    except ValueError:
        ply = exercise.ply + 1
    ply = max(0, min(ply, len(edges)))
    board = Board(game.width, game.height)
    for edge in edges[:ply]:
        board.push(edge)
    turns, count = [], 0
    for number, turn in enumerate(game.turns, start=1):
        start = count
        count += len(turn)
        turns.append(
            {
                "number": number,
                "text": edge_list_html(turn),  # each edge name kept on one line
                "ply": count,
                "current": start < ply <= count,
                "mistake": start <= exercise.ply < count,
            }
        )
    return {
        "svg": diagram(
            board,
            last_turn=[edges[ply - 1]] if ply else [],
            title=gettext("The game after %(ply)d edges") % {"ply": ply},
        ),
        "ply": ply,
        "total": len(edges),
        "turns": turns,
        "headers": game.headers,
        "outcome": outcome_text(game.board().outcome()),
        "prev": max(ply - 1, 0),
        "next": min(ply + 1, len(edges)),
    }


@require_http_methods(["GET", "POST"])
def exercise(request: HttpRequest, slug: str) -> HttpResponse:
    item = EXERCISES.get(slug)
    if item is None:
        raise Http404(gettext("No such exercise."))
    result, error = None, ""
    if request.method == "POST":
        if item.kind == "build":
            result, error = _build_step(request, item, request.POST)
        else:
            result, error = _check(item, request.POST)
        if result is not None:  # bad input is explained, not counted as an attempt
            progress_store.record_attempt(request, item.slug, correct=result["correct"])
        if not request.htmx:
            request.session[RESULT_KEY] = {"slug": item.slug, "result": result, "error": error}
            return redirect(reverse("guide:exercise", args=[item.slug]) + "#answer")
    else:
        carried = request.session.pop(RESULT_KEY, None)
        if carried and carried.get("slug") == item.slug:
            result, error = carried["result"], carried["error"]
    template = "guide/exercise.html"
    if request.htmx and request.method == "POST":
        template += "#response"  # the exercise, and the verdict for the live region
    context = _exercise_context(request, item, result, error)
    return render(request, template, context)
