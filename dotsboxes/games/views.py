"""Play pages: new game, the game itself, replay, records and "My games".

Every action works two ways: an htmx request (``HX-Request``) gets the game
panel fragment back (``games/_board.html#panel`` plus an out-of-band update of
the ``aria-live`` status line); a plain form post is answered with a redirect
to the game page, errors travelling as messages.  Permission checks live in
the services, never only in templates.

Reusing the board elsewhere (e.g. rooms)::

    panel = build_panel(game, viewer=actor_for(request), move_url=my_move_url)
    render(request, "rooms/room.html", {"panel": panel})
    # and in the template: {% include "games/_board.html#board" %} etc.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from dotsboxes import throttle
from dotsboxes.rules import Board

from . import computer, hints, services
from .errors import GameError
from .forms import ImportForm, NewGameForm
from .history import history, replay_log, status_sentence, turns
from .identity import actor_for
from .models import Game, Side
from .presenters import build_panel, legend_html
from .record_import import game_import
from .records import record_text
from .seats import Actor
from .svg import board_svg

PANEL = "games/_board.html#response"

#: What apps above this one show beside a replay: each ``extra(request, game, board,
#: ply, context)`` returns context to add.  The analysis app (which builds on games)
#: adds its panel when it loads, so this app never imports it: arrows point down.
REPLAY_EXTRAS: list[Callable[[HttpRequest, Game, Board, int, dict], dict]] = []


def _game(public_id: str) -> Game:
    game = Game.objects.filter(public_id=public_id).exclude(mode=Game.Mode.ONLINE).first()
    if game is None:
        raise Http404(gettext("There is no such game."))
    return game


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def _respond(
    request: HttpRequest,
    game: Game,
    *,
    error: str = "",
    hint=None,
    since: int | None = None,
    board: Board | None = None,
) -> HttpResponse:
    """The fresh panel for htmx, or a redirect to the game page for a plain form.

    ``board`` is the game's board when the caller has it fresh from a command.
    """
    if request.htmx:
        if board is None:
            game.refresh_from_db()
        panel = build_panel(
            game, viewer=actor_for(request), board=board, hint=hint, error=error, since_ply=since
        )
        computer.ensure(game, panel.board)
        return render(request, PANEL, {"panel": panel})
    if error:
        messages.error(request, error)
    return redirect(game)


# -- new game -------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    """The new-game form; ``?mode=local|computer`` and ``?position=<key>`` preset it."""
    wait = 0
    if request.method == "POST":
        form = NewGameForm(request.POST)
        if form.is_valid() and form.cleaned_data["mode"] == Game.Mode.COMPUTER:
            # Engine time is what is scarce: limit new games against the computer.
            wait = throttle.hit("computer_game", *throttle.request_keys(request))
            if wait:
                form.add_error(None, throttle.message(wait))
        if form.is_valid():
            data = form.cleaned_data
            try:
                game = services.game_create(
                    actor=actor_for(request, create=True),
                    mode=data["mode"],
                    width=None if data["position"] else data["width"],
                    height=None if data["position"] else data["height"],
                    start_key=data["position"],
                    computer_side=Side.RED if data["side"] == Side.BLUE else Side.BLUE,
                    computer_level=data["level"],
                    blue_name=data["blue_name"],
                    red_name=data["red_name"],
                )
            except GameError as exc:
                form.add_error(None, str(exc))
            else:
                return redirect(game)
    else:
        initial = {}
        if request.GET.get("mode") in (Game.Mode.LOCAL, Game.Mode.COMPUTER):
            initial["mode"] = request.GET["mode"]
        if request.GET.get("position"):
            initial["position"] = request.GET["position"]
        if request.GET.get("side") in (Side.BLUE, Side.RED):
            initial["side"] = request.GET["side"]  # the guide's links: play the side to move
        form = NewGameForm(initial=initial)
        if "position" in initial:
            # Check the key now so a bad link says so at once.
            form = NewGameForm({**_defaults(form), **initial})
            form.is_valid()
    preview = ""
    if form.start_board is not None:
        form.name_sides_for(form.start_board)
        preview = board_svg(form.start_board, title=gettext("The starting position"))
    context = {"form": form, "preview": preview}
    response = render(request, "games/new.html", context)
    return throttle.retry_after(response, wait) if wait else response


def _defaults(form: NewGameForm) -> dict:
    return {name: field.initial for name, field in form.fields.items() if field.initial}


# -- the game page and its actions ----------------------------------------------


@require_GET
def game(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _game(public_id)
    board = game.board()
    shown = None
    # A hint asked for without JavaScript comes back as ?hint=<edge> (the reason is a message).
    text = request.GET.get("hint", "")
    if text:
        try:
            edge = board.parse_edge(text)
        except ValueError:
            edge = None
        if edge is not None and not board.is_drawn(edge):
            shown = hints.Hint(edge, "")
    panel = build_panel(game, viewer=actor_for(request), board=board, hint=shown)
    computer.ensure(game, panel.board)
    return render(request, "games/game.html", {"panel": panel, "game": game})


@require_GET
def wait(request: HttpRequest, public_id: str) -> HttpResponse:
    """Polled while the computer thinks: 204 until the game's version moves on."""
    game = _game(public_id)
    if _int(request.GET.get("version")) == game.version:
        computer.ensure(game, game.board())
        return HttpResponse(status=204)
    since = _int(request.GET.get("ply"))
    # A negative count would mark the last edges as new and animate them again.
    return _respond(request, game, since=None if since is None else max(since, 0))


@require_POST
def move(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _game(public_id)
    wait = throttle.hit("move", *throttle.request_keys(request))
    if wait:
        if request.htmx:  # the panel as it stands, with the message where errors show
            response = _respond(request, game, error=throttle.message(wait))
            return throttle.retry_after(response, wait)
        return throttle.too_many(request, wait)
    try:
        result = services.game_play_move(
            game=game,
            edge=request.POST.get("edge", ""),
            version=request.POST.get("version"),
            actor=actor_for(request),
        )
    except GameError as exc:
        return _respond(request, game, error=str(exc))
    # The player's edge shows at once; the computer's reply comes by the poll.
    return _respond(request, result.game, board=result.board)


@require_POST
def hint(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _game(public_id)
    wait = throttle.hit("hint", *throttle.request_keys(request))
    if wait:
        if request.htmx:  # the panel, with the message where errors show (the page swaps 429)
            response = _respond(request, game, error=throttle.message(wait))
            return throttle.retry_after(response, wait)
        return throttle.too_many(request, wait)
    try:
        game = services.game_count_hint(
            game=game, version=request.POST.get("version"), actor=actor_for(request)
        )
    except GameError as exc:
        return _respond(request, game, error=str(exc))
    recommended = hints.recommend(game.board())
    if request.htmx:
        return _respond(request, game, hint=recommended)
    messages.info(
        request,
        gettext("Hint: draw %(edge)s (%(reason)s).")
        % {"edge": recommended.edge, "reason": hints.reason_text(recommended.reason)},
    )
    return redirect(f"{game.get_absolute_url()}?hint={recommended.edge}")


@require_POST
def undo(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _game(public_id)
    try:
        services.game_undo(game=game, version=request.POST.get("version"), actor=actor_for(request))
    except GameError as exc:
        return _respond(request, game, error=str(exc))
    return _respond(request, game)


@require_POST
def resign(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _game(public_id)
    try:
        services.game_resign(
            game=game, version=request.POST.get("version"), actor=actor_for(request)
        )
    except GameError as exc:
        return _respond(request, game, error=str(exc))
    return _respond(request, game)


@require_POST
def rematch(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _game(public_id)
    try:
        # The form sends swap=0 and, when its box is ticked (the default), swap=1 after it.
        swap = request.POST.get("swap", "1") != "0"
        new_game = services.game_rematch(game=game, actor=actor_for(request), swap=swap)
    except GameError as exc:
        messages.error(request, str(exc))
        return redirect(game)
    return redirect(new_game)


# -- replay and records -----------------------------------------------------------


@require_GET
def replay(request: HttpRequest, public_id: str) -> HttpResponse:
    """The game at ``?ply=N`` (default: the end), with edge and turn steps."""
    game = _game(public_id)
    full = game.board()
    steps = history(full)
    total = len(steps)
    ply = _int(request.GET.get("ply"))
    ply = total if ply is None else max(0, min(ply, total))
    board = full.copy()
    for _ in range(total - ply):
        board.pop()
    all_turns = turns(full, steps)
    shown = [t for t in all_turns if t.first_ply <= ply]
    current = shown[-1] if shown else None
    # Turn steps go from the end of one turn to the end of the next.
    prev_turn = max((t.last_ply for t in all_turns if t.last_ply < ply), default=0)
    next_turn = min((t.last_ply for t in all_turns if t.last_ply > ply), default=total)
    last_edges = [s.edge for s in steps[current.first_ply - 1 : ply]] if current else []
    context = {
        "log": replay_log(all_turns, ply),
        "legend": legend_html(game),
        "game": game,
        "ply": ply,
        "total": total,
        "svg": board_svg(
            board,
            guides=True,
            last_turn=last_edges,
            title=gettext("Board after %(ply)d of %(total)d edges, %(size)s")
            % {"ply": ply, "total": total, "size": game.size_text},
        ),
        "last_edges": last_edges,
        "board_title": gettext("Board after %(ply)d of %(total)d edges, %(size)s")
        % {"ply": ply, "total": total, "size": game.size_text},
        "scores": board.scores,
        "current": current,
        "status": _replay_status(game, board, ply, total),
        "nav": {
            "first": 0,
            "prev_turn": prev_turn,
            "prev": max(ply - 1, 0),
            "next": min(ply + 1, total),
            "next_turn": next_turn,
            "last": total,
        },
    }
    for extra in REPLAY_EXTRAS:
        context.update(extra(request, game, board, ply, context))
    template = "games/replay.html"
    if request.htmx:
        template += "#replay"
    return render(request, template, context)


def _replay_status(game: Game, board: Board, ply: int, total: int) -> str:
    """The status line at ``ply``; at the end of a finished game, how it ended."""
    text = status_sentence(board) if ply else gettext("The empty board, before the first edge.")
    if ply == total and not game.is_active and game.termination != Game.Termination.COMPLETED:
        text += " " + build_panel(game, viewer=Actor(), board=board).result_text
    return text


@require_GET
def record(request: HttpRequest, public_id: str) -> HttpResponse:
    """The game record as a text file (the rules core's notation)."""
    game = _game(public_id)
    response = HttpResponse(record_text(game), content_type="text/plain; charset=utf-8")
    filename = f"dotsboxes-{game.public_id}.txt"
    if request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_http_methods(["GET", "POST"])
def import_record(request: HttpRequest) -> HttpResponse:
    """Paste a record to replay it or play on from its last position."""
    form = ImportForm(request.POST or None)
    wait = 0
    if (
        request.method == "POST"
        and form.is_valid()
        and form.cleaned_data["mode"] == Game.Mode.COMPUTER
    ):
        wait = throttle.hit("computer_game", *throttle.request_keys(request))
        if wait:
            form.add_error("record", throttle.message(wait))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        mode = Game.Mode.LOCAL if data["mode"] == "replay" else data["mode"]
        try:
            game = game_import(
                text=data["record"],
                actor=actor_for(request, create=True),
                mode=mode,
                computer_side=Side.RED if data["side"] == Side.BLUE else Side.BLUE,
                computer_level=data["level"],
            )
        except GameError as exc:
            form.add_error("record", str(exc))
        else:
            if data["mode"] == "replay":
                return redirect(reverse("games:replay", args=[game.public_id]))
            return redirect(game)
    response = render(request, "games/import.html", {"form": form})
    return throttle.retry_after(response, wait) if wait else response


@require_GET
def mine(request: HttpRequest) -> HttpResponse:
    """This browser's games (and a signed-in user's), newest first."""
    actor = actor_for(request)
    query = Q(pk__in=[])
    if actor.token:
        query |= Q(blue_token=actor.token) | Q(red_token=actor.token)
    if actor.user_id is not None:
        query |= Q(blue_user_id=actor.user_id) | Q(red_user_id=actor.user_id)
    games = Game.objects.filter(query).exclude(mode=Game.Mode.ONLINE)[:200]
    return render(request, "games/mine.html", {"games": games})
