"""Report a game (anyone), and the staff's review queue."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from dotsboxes import throttle
from dotsboxes.analysis.views import game_panel
from dotsboxes.games.models import Game
from dotsboxes.games.svg import board_svg
from dotsboxes.rooms.models import Message
from dotsboxes.rules import Board, RulesError
from dotsboxes.studies.models import Chapter, Study

from . import fairplay
from .access import staff_required
from .forms import ReportForm, ResolveForm, StudyReportForm
from .models import ChatReport, Report

CHAT_SHOWN = 300  # chat lines of an online game shown beside a report


def game_url(game: Game) -> str | None:
    """The game's own page, or ``None`` while no page shows this kind of game yet."""
    try:
        return game.get_absolute_url()
    except NoReverseMatch:
        return None


def replay_url(game: Game, ply: int) -> str | None:
    """The games app's replay of ``game`` at ``ply``, or its page, or ``None``."""
    try:
        return f"{reverse('games:replay', args=[game.public_id])}?ply={ply}"
    except NoReverseMatch:
        url = game_url(game)
        return f"{url}?ply={ply}" if url else None


def _ply(value: str | None, moves: int, default: int) -> int:
    """A ply from the query string, kept within the game; ``default`` when unreadable."""
    try:
        ply = int(value) if value not in (None, "") else default
    except ValueError:
        ply = default
    return min(max(ply, 0), moves)


def _position(game: Game, ply: int) -> Board | None:
    try:
        return game.board(ply=ply)
    except RulesError:
        return None  # stored moves that no longer replay: shown as a plain message


def _svg(board: Board) -> str:
    stack = board.move_stack
    title = gettext("Position after %(n)d edges") % {"n": len(stack)}
    return board_svg(board, last_turn=stack[-1:], title=title)


@require_http_methods(["GET", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    if "study" in request.GET:
        return _new_study_report(request, request.GET["study"])
    public_id = request.GET.get("game", "")
    game = Game.objects.filter(public_id=public_id).first() if public_id else None
    if game is None:
        return render(request, "reports/no_game.html", {"public_id": public_id}, status=404)
    moves = game.moves.count()
    ply = _ply(request.GET.get("ply"), moves, default=moves)
    board = _position(game, ply)
    if board is None:
        return render(request, "reports/no_game.html", {"public_id": public_id}, status=404)
    form = ReportForm(request.POST or None)
    wait = 0
    if request.method == "POST" and form.is_valid():
        # The "report" rate limit (settings.RATE_LIMITS), counted once a report is
        # stored: a form sent back with a mistake is no flood.  It fails open, so a
        # Redis outage never turns a report into an error.
        keys = throttle.request_keys(request)
        wait = throttle.hit("report", *keys, count=False)
        if not wait:
            report = form.save(commit=False)
            report.game, report.width, report.height = game, game.width, game.height
            report.ply, report.position_key = ply, board.key()
            report.reporter = request.user if request.user.is_authenticated else None
            report.save()
            throttle.hit("report", *keys)
            return redirect(f"{reverse('reports:thanks')}?game={game.public_id}")
    context = {
        "game": game,
        "game_url": game_url(game),
        "ply": ply,
        "moves": moves,
        "svg": _svg(board),
        "form": form,
        "limited": bool(wait),
    }
    response = render(request, "reports/new.html", context)
    return throttle.retry_after(response, wait) if wait else response


def _new_study_report(request: HttpRequest, slug: str) -> HttpResponse:
    """Report a study (anyone who may read it): its first chapter's start, or the one named."""
    study = Study.objects.filter(slug=slug).first()
    if study is None or not study.may_view(request.user):
        return render(request, "reports/no_game.html", {"public_id": slug}, status=404)
    chapters = list(study.chapters.all())
    number = _ply(request.GET.get("chapter"), len(chapters), default=1)
    chapter = next((c for c in chapters if c.number == number), None)
    board = chapter.parsed().start_board() if chapter else None
    form = StudyReportForm(request.POST or None)
    wait = 0
    if request.method == "POST" and form.is_valid():
        keys = throttle.request_keys(request)
        wait = throttle.hit("report", *keys, count=False)
        if not wait:
            report = form.save(commit=False)
            report.study = study
            report.width, report.height = (board.width, board.height) if board else (0, 0)
            report.ply = chapter.number if chapter else 0
            report.position_key = board.key() if board else ""
            report.reporter = request.user if request.user.is_authenticated else None
            report.save()
            throttle.hit("report", *keys)
            return redirect(f"{reverse('reports:thanks')}?study={study.slug}")
    context = {
        "study": study,
        "chapter": chapter,
        "svg": board_svg(board, guides=True) if board else None,
        "form": form,
        "limited": bool(wait),
    }
    response = render(request, "reports/new_study.html", context)
    return throttle.retry_after(response, wait) if wait else response


@require_GET
def thanks(request: HttpRequest) -> HttpResponse:
    game = Game.objects.filter(public_id=request.GET.get("game", "")).first()
    study = Study.objects.filter(slug=request.GET.get("study", "")).first()
    back = study.get_absolute_url() if study and study.may_view(request.user) else None
    return render(
        request,
        "reports/thanks.html",
        {"game": game, "game_url": game and game_url(game), "study_url": back},
    )


@require_GET
@staff_required
def queue(request: HttpRequest) -> HttpResponse:
    status = request.GET.get("status", Report.Status.OPEN)
    reports = Report.objects.select_related("game", "study", "reporter", "resolved_by")
    if status in Report.Status.values:
        reports = reports.filter(status=status)
    else:
        status = "all"
    page = Paginator(reports, 30).get_page(request.GET.get("page"))
    counts = {s: Report.objects.filter(status=s).count() for s in Report.Status.values}
    chat_reports = ChatReport.objects.select_related("reporter", "author")
    if status in ChatReport.Status.values:
        chat_reports = chat_reports.filter(status=status)
    context = {
        "page": page,
        "status": status,
        "counts": counts,
        "statuses": Report.Status,
        "chat_reports": chat_reports[:50],
    }
    return render(request, "reports/queue.html", context)


@require_GET
@staff_required
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    report = get_object_or_404(
        Report.objects.select_related("game", "study", "reporter", "resolved_by"), pk=pk
    )
    if report.study_id:
        return _study_detail(request, report)
    game = report.game
    moves = list(game.moves.order_by("ply").values_list("ply", "edge", "side"))
    ply = _ply(request.GET.get("ply"), len(moves), default=min(report.ply, len(moves)))
    board = _position(game, ply)
    context = {
        "report": report,
        "game": game,
        "game_url": game_url(game),
        "replay_url": replay_url(game, ply),
        "ply": ply,
        "moves": moves,
        "last": len(moves),
        "svg": _svg(board) if board else None,
        "board": board,
        "form": ResolveForm(initial={"note": report.resolution_note}),
        # The game's analysis beside the reported position (its graph links back here).
        "analysis": game_panel(
            request, game, ply=ply, page_url=reverse("reports:detail", args=[pk]), target=""
        ),
        # Fair-play figures of each player, in this game and over their recent rated games.
        "fairplay": fairplay.game_evidence(game),
        # An online game's chat, so an "offensive chat" report can be judged on the spot.
        "chat": list(
            Message.objects.filter(room__game=game, kind=Message.Kind.CHAT).order_by(
                "created_at", "id"
            )[:CHAT_SHOWN]
        ),
    }
    return render(request, "reports/detail.html", context)


def _study_detail(request: HttpRequest, report: Report) -> HttpResponse:
    study = report.study
    chapter = Chapter.objects.filter(study=study, number=report.ply).first()
    board = Board.from_key(report.position_key) if report.position_key else None
    context = {
        "report": report,
        "study": study,
        "chapter": chapter,
        "svg": board_svg(board, guides=True) if board else None,
        "form": ResolveForm(initial={"note": report.resolution_note}),
    }
    return render(request, "reports/study_detail.html", context)


@require_POST
@staff_required
def resolve(request: HttpRequest, pk: int) -> HttpResponse:
    return resolve_open(
        request,
        get_object_or_404(Report, pk=pk),
        resolved=gettext("Report %(pk)s is resolved.") % {"pk": pk},
        already=gettext("Report %(pk)s is already resolved.") % {"pk": pk},
    )


def resolve_open(request: HttpRequest, report, *, resolved: str, already: str) -> HttpResponse:
    """Resolve ``report`` (a game, study or chat report) with the staff member's note.

    Only an open report is resolved: the same form posted twice, or two members of
    staff at once, leave the first resolution (who, when, the note) as it was.
    """
    form = ResolveForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, gettext("Write a short note saying what was found before resolving.")
        )
        return redirect(report)
    done = (
        type(report)
        .objects.filter(pk=report.pk, status=report.Status.OPEN)
        .update(
            status=report.Status.RESOLVED,
            resolution_note=form.cleaned_data["note"].strip(),
            resolved_by=request.user,
            resolved_at=timezone.now(),
        )
    )
    if done:
        messages.success(request, resolved)
    else:
        messages.error(request, already)
    return redirect(report)


@require_POST
@staff_required
def reopen(request: HttpRequest, pk: int) -> HttpResponse:
    report = get_object_or_404(Report, pk=pk)
    done = Report.objects.filter(pk=pk, status=Report.Status.RESOLVED).update(
        status=Report.Status.OPEN, resolved_by=None, resolved_at=None
    )
    if done:
        messages.success(request, gettext("Report %(pk)s is open again.") % {"pk": report.pk})
    else:
        messages.error(request, gettext("Report %(pk)s is already open.") % {"pk": report.pk})
    return redirect(report)
