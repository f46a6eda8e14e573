"""Pages: a game's analysis (and the button that asks for it), and the analysis board.

The analysis board's whole state is in its URL: ``?position=KEY`` (where it
starts, :meth:`Board.key`) and ``&line=a1-b1,b2-c2`` (the edges drawn since),
so a position can be shared and every action is a plain link or GET form:
drawing an edge adds ``&edge=c3-d3``, which redirects to the longer line.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST

from dotsboxes import throttle
from dotsboxes.engine import annotate
from dotsboxes.games.explain import position_facts
from dotsboxes.games.history import replay_log, turns
from dotsboxes.games.identity import actor_for, browser_token
from dotsboxes.games.models import Game
from dotsboxes.games.svg import Tint, board_svg
from dotsboxes.games.wording import player_name, size_text
from dotsboxes.rules import Board, Edge, Player, RulesError

from . import board as board_jobs
from . import scheduling, services
from .presenters import build, game_page_url

MAX_SIZE = 9
#: The sizes the analysis board offers to start from (width, height in boxes).
BOARD_SIZES = [(n, n) for n in range(2, 7)] + [(3, 2), (4, 3), (5, 4)]


def _is_staff(request: HttpRequest) -> bool:
    return bool(getattr(request.user, "is_staff", False))


def game_panel(request: HttpRequest, game: Game, *, ply: int, page_url: str, target: str):
    """The analysis panel of ``game`` for this visitor (used by the replay too)."""
    actor = actor_for(request)
    refusal = services.refusal(game, actor, staff=_is_staff(request))
    return build(
        game,
        services.current(game),
        ply=ply,
        page_url=page_url,
        target=target,
        refusal=refusal,
    )


def replay_extras(request: HttpRequest, game: Game, board: Board, ply: int, context: dict) -> dict:
    """The game's analysis beside its replay (``games.views.REPLAY_EXTRAS``): the
    panel, the marks in the replay's log, and the best edge on the board."""
    url = reverse("games:replay", args=[game.public_id])
    panel = game_panel(request, game, ply=ply, page_url=url, target="replay")
    panel.mark_log(context["log"])
    extra = {"analysis": panel, "explore_url": explore_url(board)}
    if panel.best:
        extra["svg"] = board_svg(
            board,
            guides=True,
            last_turn=context["last_edges"],
            highlight=[Edge.parse(e) for e in panel.best],
            title=context["board_title"],
        )
    return extra


def _ply(request: HttpRequest, total: int) -> int:
    try:
        ply = int(request.GET.get("ply", total))
    except ValueError:
        ply = total
    return max(0, min(ply, total))


@require_GET
def game(request: HttpRequest, public_id: str) -> HttpResponse:
    """A game's analysis on its own page: every mode, online rooms included."""
    game = get_object_or_404(Game, public_id=public_id)
    if not services.may_view(game, actor_for(request), staff=_is_staff(request)):
        return render(request, "analysis/game.html", {"game": game, "hidden": True}, status=403)
    full = game.board()
    total = len(full.move_stack)
    ply = _ply(request, total)
    panel = game_panel(request, game, ply=ply, page_url=game_page_url(game), target="analysis-game")
    board = game.board(ply=ply)
    # The turn log with its marks, as on the replay (an online room has no other replay).
    all_turns = turns(full)
    log = replay_log(all_turns, ply)
    panel.mark_log(log)
    shown = [t for t in all_turns if t.first_ply <= ply]
    context = {
        "game": game,
        "panel": panel,
        "ply": ply,
        "total": total,
        "svg": board_svg(
            board,
            guides=True,
            highlight=[Edge.parse(e) for e in panel.best],
            title=_("Board after %(ply)d of %(total)d edges") % {"ply": ply, "total": total},
        ),
        "scores": board.scores,
        "explore_url": explore_url(board),
        "log": log,
        "current": shown[-1] if shown else None,
    }
    template = "analysis/game.html"
    if request.htmx:
        template += "#game"
    return render(request, template, context)


@require_POST
def request_analysis(request: HttpRequest, public_id: str) -> HttpResponse:
    """The "Analyse this game" button: start (or reuse) the analysis, then go back."""
    game = get_object_or_404(Game, public_id=public_id)
    refusal = services.refusal(game, actor_for(request), staff=_is_staff(request))
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = game_page_url(game)
    if refusal:
        messages.error(request, refusal)
        return redirect(back)
    if services.current(game) is None:  # this request would start the engine
        wait = throttle.hit("analysis", *throttle.request_keys(request))
        if wait:
            return throttle.too_many(request, wait)
    services.request_analysis(game, scheduling.owner_of_request(request))
    return redirect(back)


def explore_url(board: Board) -> str:
    """The analysis board at ``board``'s position ("Analyse from here")."""
    return reverse("analysis:board") + "?" + urlencode({"position": board.key()})


# -- the analysis board --------------------------------------------------------------

# Boxes lost against the best edge -> colour of the edge on the board.
SCALE = (
    (0, "#15803d", gettext_lazy("best")),
    (1, "#a16207", gettext_lazy("1 box")),
    (2, "#be185d", gettext_lazy("2-3 boxes")),
    (4, "#6b21a8", gettext_lazy("4+ boxes")),
)


def _scale_colour(lost: int) -> str:
    colour = SCALE[0][1]
    for boxes, c, _label in SCALE:
        if lost >= boxes:
            colour = c
    return colour


def _board_state(request: HttpRequest) -> tuple[Board, list[Edge], str]:
    """The start position, the line drawn since, and an error for bad input ('' if none)."""
    error = ""
    position = (request.GET.get("position") or "").strip()
    start = None
    if position:
        try:
            start = Board.from_key(position)
            if max(start.width, start.height) > MAX_SIZE:
                raise RulesError(_("boards go up to %(n)d boxes a side") % {"n": MAX_SIZE})
        except RulesError as exc:
            error = str(exc)
            start = None
    if start is None:
        try:
            w, h = (int(n) for n in (request.GET.get("size") or "5x5").lower().split("x"))
            if not (1 <= w <= MAX_SIZE and 1 <= h <= MAX_SIZE):
                raise ValueError
        except ValueError:
            error = error or _("A size is written like 5x5 (boxes), from 1 to %(n)d a side.") % {
                "n": MAX_SIZE
            }
            w = h = 5
        start = Board(w, h)
    board = Board.from_key(start.key())
    line: list[Edge] = []
    for text in filter(None, (request.GET.get("line") or "").split(",")):
        try:
            line.append(board.parse_edge(text.strip()))
            board.play(line[-1])
        except RulesError as exc:
            line = line[:-1]
            error = error or _("The line stops before %(edge)s: %(error)s") % {
                "edge": text,
                "error": exc,
            }
            break
    return board, line, error


def board_url(start_key: str, line: list[Edge]) -> str:
    query = {"position": start_key}
    if line:
        query["line"] = ",".join(str(e) for e in line)
    return reverse("analysis:board") + "?" + urlencode(query)


def _start_key(board: Board) -> str:
    start = board.copy()
    while start.move_stack:
        start.pop()
    return start.key()


@require_GET
def analysis_board(request: HttpRequest) -> HttpResponse:
    board, line, error = _board_state(request)
    start_key = _start_key(board)
    edge_text = (request.GET.get("edge") or "").strip()
    if edge_text and not error:
        try:
            edge = board.parse_edge(edge_text)
            board.play(edge)
            line.append(edge)
        except RulesError as exc:
            error = str(exc)
        else:
            url = board_url(start_key, line)
            if not request.htmx:
                return redirect(url)
            response = _render_board(request, board, start_key, line, "")
            response["HX-Push-Url"] = url
            return response
    return _render_board(request, board, start_key, line, error)


def edge_values(request: HttpRequest, board: Board) -> dict:
    """The analysis board's values for ``board``, asked for when missing (never computed here).

    ``state`` (final, working, mine, busy), ``found`` (what is stored), ``rows`` (a row
    per free edge, best first) and ``tints`` (the board's slots, for :func:`board_svg`).
    The study editor shows them beside its board too.
    """
    position = board.key()
    visitor = browser_token(request, create=True)
    state = "final" if board.is_over() else board_jobs.ensure(position, visitor)
    found = board_jobs.values(position) or {}
    values = found.get("values", {})
    exact_edges = set(found.get("exact_edges", ()))
    best = found.get("value", 0)
    rows, tints = [], {}
    for edge in board.legal_moves:
        name = str(edge)
        if name not in values:
            continue
        value = values[name]
        lost = max(0, (best - value) // 2)
        exact = name in exact_edges
        # Whole phrases (not glued from "best", "exact" and "value"): word order is
        # the translator's.  The value is signed, so it goes in as text.
        signed = f"{value:+d}"
        if lost and exact:
            text = ngettext(
                "loses %(n)d box, exact, value %(value)s",
                "loses %(n)d boxes, exact, value %(value)s",
                lost,
            )
        elif lost:
            text = ngettext(
                "loses %(n)d box, estimate, value %(value)s",
                "loses %(n)d boxes, estimate, value %(value)s",
                lost,
            )
        elif exact:
            text = _("best, exact, value %(value)s")
        else:
            text = _("best, estimate, value %(value)s")
        text %= {"n": lost, "value": signed}
        if lost:
            said = ngettext("loses %(n)d box", "loses %(n)d boxes", lost) % {"n": lost}
        else:
            said = _("best")
        tints[edge] = Tint(
            _scale_colour(lost), "0" if not lost else f"\u2212{lost}", text, not exact
        )
        rows.append({"edge": name, "value": value, "lost": lost, "exact": exact, "text": said})
    rows.sort(key=lambda r: (-r["value"], r["edge"]))
    return {"state": state, "found": found, "rows": rows, "tints": tints}


def _render_board(
    request: HttpRequest, board: Board, start_key: str, line: list[Edge], error: str
) -> HttpResponse:
    position = board.key()
    shown = edge_values(request, board)
    state, found, rows, tints = shown["state"], shown["found"], shown["rows"], shown["tints"]
    flipped = position[:-1] + ("r" if board.turn is Player.BLUE else "b")
    context = {
        "board": board,
        "svg": board_svg(
            board,
            interactive=not board.is_over(),
            tints=tints,
            title=_("Analysis board, %(size)s, %(side)s to move")
            % {"size": size_text(board.width, board.height), "side": player_name(board.turn)},
        ),
        "rows": rows,
        "found": found,
        "state": state,
        "error": error,
        "start_key": start_key,
        "line": ",".join(str(e) for e in line),
        "line_edges": [str(e) for e in line],
        "position": position,
        "url": board_url(start_key, line),
        "undo_url": board_url(start_key, line[:-1]) if line else "",
        "toggle_url": board_url(flipped, []),
        "turn": board.turn,
        "turn_name": player_name(board.turn),
        "other_name": player_name(board.turn.other),
        "facts": [] if board.is_over() else position_facts(board, control=True),
        "scores": board.scores,
        "scale": [(c, label) for _b, c, label in SCALE],
        "sizes": [(f"{w}x{h}", f"{w} × {h}") for w, h in BOARD_SIZES],  # noqa: RUF001 - the multiplication sign
        "annotate_version": annotate.VERSION,
        # A position just shown (a page, an edge drawn) asks once after 150 ms, then
        # every 250 ms: a warm server has the empty 3 x 3 board's values in about 0.1 s.
        "first_poll": not (request.htmx and request.htmx.trigger == "analysis-board"),
    }
    template = "analysis/board.html"
    if request.htmx:
        template += "#board"
    return render(request, template, context)
