"""Study pages: the list, a study, a chapter to read, the author's editor, import and export.

Every action is a plain form (htmx swaps the same fragment when it is there);
nothing here runs the engine: claims are checked by jobs (:mod:`.checks`).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from dotsboxes import throttle
from dotsboxes.analysis.views import edge_values, explore_url
from dotsboxes.games.identity import actor_for
from dotsboxes.games.svg import board_svg
from dotsboxes.games.wording import player_name, size_text
from dotsboxes.text import posted_edge

from . import checks, present, services
from .models import Chapter, Study

ANSWER_KEY = "study_answers"  # answers checked, carried across a plain form's redirect
PER_PAGE = 30


class StudyForm(forms.Form):
    title = forms.CharField(label=gettext_lazy("Title"), max_length=120)
    description = forms.CharField(
        label=gettext_lazy("Description"),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    visibility = forms.ChoiceField(
        label=gettext_lazy("Who may see it"), choices=Study.Visibility.choices, initial="private"
    )


class ImportForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Study text or game record"),
        required=False,
        max_length=200_000,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )
    file = forms.FileField(label=gettext_lazy("or a file"), required=False)


class ChapterForm(forms.Form):
    title = forms.CharField(label=gettext_lazy("Chapter title"), max_length=120, required=False)
    size = forms.CharField(
        label=gettext_lazy("Empty board (boxes)"), max_length=5, required=False, initial="5x5"
    )
    position = forms.CharField(
        label=gettext_lazy("or a position key"), max_length=120, required=False
    )
    game = forms.CharField(
        label=gettext_lazy("or a game of the site (its link)"), max_length=200, required=False
    )
    ply = forms.IntegerField(
        label=gettext_lazy("from edge"), min_value=0, max_value=400, required=False
    )
    record = forms.CharField(
        label=gettext_lazy("or a record pasted in"),
        required=False,
        max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
    )


def _study(request: HttpRequest, slug: str) -> Study:
    study = get_object_or_404(Study.objects.select_related("owner"), slug=slug)
    if not study.may_view(request.user):
        raise Http404
    return study


def _own(request: HttpRequest, slug: str) -> Study:
    study = _study(request, slug)
    if not study.may_edit(request.user):
        raise Http404
    return study


def _chapter(study: Study, number: int) -> Chapter:
    return get_object_or_404(Chapter, study=study, number=number)


def _badges(chapters) -> dict[int, tuple[str, list]]:
    """Each chapter's badge and its claims with verdicts, from one read of the checks."""
    parsed = {c.pk: c.parsed() for c in chapters}
    claims = {pk: checks.claims(p) for pk, p in parsed.items()}
    rows = checks.rows_for(cl.key for found in claims.values() for cl in found)
    out = {}
    for pk, found in claims.items():
        judged = [(c, checks.verdict(c, rows)) for c in found]
        out[pk] = (checks.badge([v for _c, v in judged]) if judged else "", judged)
    return out


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    listed = Study.objects.filter(visibility=Study.Visibility.PUBLIC, unlisted_by_staff=False)
    query = (request.GET.get("q") or "").strip()[:80]
    if query:
        listed = listed.filter(Q(title__icontains=query) | Q(description__icontains=query))
    page = Paginator(listed.select_related("owner"), PER_PAGE).get_page(request.GET.get("page"))
    mine = Study.objects.filter(owner=request.user)[:50] if request.user.is_authenticated else []
    return render(request, "studies/index.html", {"page": page, "mine": mine, "query": query})


@login_required
@require_http_methods(["GET", "POST"])
@throttle.limit("study_create")
def new(request: HttpRequest) -> HttpResponse:
    """A new study: from a title (then chapters are added), or from its text imported."""
    form, imported = StudyForm(prefix="s"), ImportForm(prefix="i")
    if request.method == "POST":
        if "import" in request.POST:
            imported = ImportForm(request.POST, request.FILES, prefix="i")
            if imported.is_valid():
                text = imported.cleaned_data["text"]
                upload = imported.cleaned_data["file"]
                if upload is not None:
                    if upload.size > 200_000:
                        imported.add_error("file", _("The file is too large (200 KB at most)."))
                        text = None
                    else:
                        try:
                            text = upload.read().decode("utf-8")
                        except UnicodeDecodeError:
                            imported.add_error("file", _("The file is not UTF-8 text."))
                            text = None
                if text is not None:
                    try:
                        study = services.study_import(owner=request.user, text=text)
                    except services.StudyError as exc:
                        imported.add_error(None, str(exc))
                    else:
                        return redirect("studies:edit", study.slug)
        else:
            form = StudyForm(request.POST, prefix="s")
            if form.is_valid():
                study = services.study_create(owner=request.user, **form.cleaned_data)
                return redirect("studies:edit", study.slug)
    return render(request, "studies/new.html", {"form": form, "imported": imported})


@require_GET
def study(request: HttpRequest, slug: str) -> HttpResponse:
    study = _study(request, slug)
    chapters = list(study.chapters.all())
    badges = _badges(chapters)
    progress = {}
    if request.user.is_authenticated:
        from .models import ChapterProgress

        for row in ChapterProgress.objects.filter(user=request.user, chapter__study=study):
            progress[row.chapter_id] = sum(1 for v in row.answers.values() if v)
    rows = [
        {"chapter": c, "badge": badges[c.pk][0], "solved": progress.get(c.pk)} for c in chapters
    ]
    return render(
        request,
        "studies/study.html",
        {
            "study": study,
            "rows": rows,
            "may_edit": study.may_edit(request.user),
            "staff": request.user.is_staff,
            "pending": any(r["badge"] == checks.PENDING for r in rows),
        },
    )


@require_GET
def export(request: HttpRequest, slug: str) -> HttpResponse:
    study = _study(request, slug)
    response = HttpResponse(services.study_export(study), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="study-{study.slug}.txt"'
    return response


@login_required
@require_POST
@throttle.limit("study_create")
def copy(request: HttpRequest, slug: str) -> HttpResponse:
    copied = services.study_copy(study=_study(request, slug), owner=request.user)
    messages.success(request, _("This is your own copy: change it as you like."))
    return redirect("studies:edit", copied.slug)


@require_POST
def staff(request: HttpRequest, slug: str) -> HttpResponse:
    if not request.user.is_staff:
        raise Http404
    study = get_object_or_404(Study, slug=slug)
    action = request.POST.get("action")
    try:
        if action in ("unlist", "relist"):
            services.study_set_listed(study=study, listed=action == "relist")
        elif action in ("feature", "unfeature"):
            services.study_set_featured(study=study, featured=action == "feature")
    except services.StudyError as exc:
        messages.error(request, str(exc))
    return redirect(study)


@require_http_methods(["GET", "POST"])
@throttle.limit("study_edit")
def edit(request: HttpRequest, slug: str) -> HttpResponse:
    """The author's page: the study's settings, its chapters, a new chapter."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    study = _own(request, slug)
    form = StudyForm(
        prefix="s",
        initial={
            "title": study.title,
            "description": study.description,
            "visibility": study.visibility,
        },
    )
    add = ChapterForm(prefix="c")
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "settings":
            form = StudyForm(request.POST, prefix="s")
            if form.is_valid():
                services.study_update(study=study, **form.cleaned_data)
                messages.success(request, _("Saved."))
                return redirect("studies:edit", study.slug)
        elif action == "chapter":
            add = ChapterForm(request.POST, prefix="c")
            if add.is_valid():
                data = add.cleaned_data
                source = services.Source(
                    size=data["size"],
                    position=data["position"],
                    game=data["game"],
                    ply=data["ply"],
                    record=data["record"],
                )
                try:
                    chapter = services.chapter_add(
                        study=study,
                        title=data["title"],
                        source=source,
                        actor=actor_for(request),
                        staff=request.user.is_staff,
                    )
                except services.StudyError as exc:
                    add.add_error(None, str(exc))
                else:
                    return redirect("studies:chapter_edit", study.slug, chapter.number)
        elif action == "delete_chapter":
            chapter = _chapter(study, _int(request.POST.get("number")) or 0)
            services.chapter_delete(chapter=chapter)
            messages.success(request, _("Chapter deleted."))
            return redirect("studies:edit", study.slug)
        elif action == "delete_study" and request.POST.get("confirm") == "yes":
            services.study_delete(study=study)
            messages.success(request, _("Study deleted."))
            return redirect("studies:index")
    chapters = list(study.chapters.all())
    badges = _badges(chapters)
    return render(
        request,
        "studies/edit.html",
        {
            "study": study,
            "form": form,
            "add": add,
            "rows": [{"chapter": c, "badge": badges[c.pk][0]} for c in chapters],
        },
    )


def _int(text) -> int | None:
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def _chapter_context(
    request: HttpRequest, study: Study, chapter: Chapter, at: str, *, editing: bool
) -> dict:
    parsed = chapter.parsed()
    try:
        node, _board, indices = services.node_at(parsed, at)
    except services.StudyError:
        node, indices, at = parsed.root, [], ""
    board = present.board_at(parsed, indices)
    badge, judged = _badges([chapter])[chapter.pk]
    by_path: dict[str, list] = {}
    for claim, verdict in judged:
        if not claim.question:
            by_path.setdefault(claim.path, []).append((claim, verdict))
    steps = present.steps(parsed, indices)
    base = reverse(
        "studies:chapter_edit" if editing else "studies:chapter", args=[study.slug, chapter.number]
    )
    if steps.on_main:
        where = _("Edge %(n)d of the main line") % {"n": steps.ply}
    else:
        where = _("Edge %(n)d, in a variation") % {"n": steps.ply}
    start = parsed.start_board()
    answers = request.session.get(ANSWER_KEY, {}).get(str(chapter.pk), {})
    questions = []
    for n, q in enumerate(parsed.questions, start=1):
        questions.append(
            {"n": n, "kind": q.kind, "answer": q.answer, "result": answers.get(str(n))}
        )
    best_question = next((q for q in questions if q["kind"] == "best"), None)
    interactive = editing or (best_question is not None and not indices and not board.is_over())
    title = _("%(chapter)s, %(size)s, %(side)s to move") % {
        "chapter": chapter.title,
        "size": size_text(board.width, board.height),
        "side": player_name(board.turn),
    }
    # The author draws with the analysis board's values beside the board (asked for in the
    # background as on that page; shown once they come, never computed here).
    values = edge_values(request, board) if editing and not board.is_over() else None
    variations = []
    if indices:
        parent, _b, _i = services.node_at(parsed, checks.path_text(indices[:-1]))
        variations = [
            {
                "edge": str(c.edge),
                "path": checks.path_text([*indices[:-1], i]),
                "current": i == indices[-1],
            }
            for i, c in enumerate(parent.children)
        ]
    return {
        "study": study,
        "chapter": chapter,
        "parsed": parsed,
        "node": node,
        "at": at,
        "board": board,
        "svg": board_svg(
            board,
            guides=True,
            interactive=interactive and not board.is_over(),
            last_turn=[node.edge] if node.edge else [],
            title=title,
            tints=values["tints"] if values else None,
        ),
        "values": values,
        "values_waiting": bool(values and values["state"] != "final"),
        "items": present.items(parsed, at, {p: [v for _c, v in cv] for p, cv in by_path.items()}),
        "here": by_path.get(at, []),
        "judged": judged,
        "badge": badge,
        "pending": badge == checks.PENDING,
        "nav": steps.as_nav(),
        "nav_prefix": base + "?at=",
        "where": where,
        "variations": variations if len(variations) > 1 else [],
        "questions": questions,
        "best_question": best_question,
        "start": start,
        "scores": board.scores,
        "turn_name": player_name(board.turn),
        "explore_url": explore_url(board),
        "chapters": list(study.chapters.values_list("number", "title")),
        "editing": editing,
        "can_promote": bool(indices and indices[-1] != 0),
        "version": chapter.version,
        "text": chapter.text,
        "embed_url": request.build_absolute_uri(
            reverse("studies:chapter_svg", args=[study.slug, chapter.number])
        ),
        "link_url": request.build_absolute_uri(chapter.get_absolute_url()),
    }


@require_GET
def chapter(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    study = _study(request, slug)
    row = _chapter(study, number)
    context = _chapter_context(request, study, row, request.GET.get("at", ""), editing=False)
    context["may_edit"] = study.may_edit(request.user)
    template = "studies/chapter.html"
    if request.htmx and request.htmx.target == "replay":
        template += "#replay"
    return render(request, template, context)


@require_POST
@throttle.limit("puzzle")
def answer(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A reader's answer to a question, judged on the server; kept for a signed-in reader."""
    study = _study(request, slug)
    row = _chapter(study, number)
    question = _int(request.POST.get("question")) or 0
    text = request.POST.get("answer") or posted_edge(request.POST) or ""
    url = row.get_absolute_url() + f"#question-{question}"
    error = ""
    try:
        outcome = services.answer_question(
            chapter=row, number=question, answer=text, user=request.user
        )
        result = {"correct": outcome.correct, "message": outcome.message, "given": text}
    except services.StudyError as exc:
        if question not in range(1, len(row.parsed().questions) + 1):
            error = str(exc)  # no such question: said on the page, not under a question
            result = None
        else:
            result = {"correct": None, "message": str(exc), "given": text}
    if result is not None:
        answers = request.session.get(ANSWER_KEY, {})
        answers.setdefault(str(row.pk), {})[str(question)] = result
        request.session[ANSWER_KEY] = answers
    elif not request.htmx:
        messages.error(request, error)
        return redirect(row.get_absolute_url())
    if request.htmx:
        context = _chapter_context(request, study, row, "", editing=False)
        context["may_edit"] = study.may_edit(request.user)
        context["error"] = error
        response = render(request, "studies/chapter.html#replay", context)
        response["HX-Push-Url"] = row.get_absolute_url()
        return response
    return redirect(url)


@require_http_methods(["GET", "POST"])
@throttle.limit("study_edit")
def chapter_edit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The author's board: draw lines by clicking edges, comment, mark claims, or edit the text."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    study = _own(request, slug)
    row = _chapter(study, number)
    at = request.POST.get("at", request.GET.get("at", ""))
    error = ""
    if request.method == "POST":
        action, version = request.POST.get("action"), request.POST.get("version")
        try:
            if action == "draw":
                row, at = services.chapter_draw(
                    chapter=row, version=version, path=at, edge_text=posted_edge(request.POST) or ""
                )
            elif action == "annotate":
                blue = (request.POST.get("blue") or "").strip()
                if blue and not (blue.isascii() and blue.isdigit()):
                    raise services.StudyError(_("Blue's boxes are a number."))
                row = services.chapter_annotate(
                    chapter=row,
                    version=version,
                    path=at,
                    comment=request.POST.get("comment", ""),
                    best=bool(request.POST.get("best")),
                    blue=int(blue) if blue else None,
                )
            elif action == "cut":
                row, at = services.chapter_cut(chapter=row, version=version, path=at)
            elif action == "promote":
                row, at = services.chapter_promote(chapter=row, version=version, path=at)
            elif action == "text":
                row = services.chapter_save_text(
                    chapter=row, text=request.POST.get("text", ""), version=version
                )
                at = ""
            else:
                raise services.StudyError(_("Unknown action."))
        except services.StudyError as exc:
            error = str(exc)
            row = _chapter(study, number)
        else:
            url = reverse("studies:chapter_edit", args=[slug, row.number]) + (
                f"?at={at}" if at else ""
            )
            if not request.htmx:
                return redirect(url)
    context = _chapter_context(request, study, row, at, editing=True)
    context["error"] = error
    if error and request.POST.get("action") == "text":
        context["text"] = request.POST.get("text", "")
    template = "studies/chapter.html"
    if request.htmx and request.htmx.target == "replay":
        template += "#replay"
    response = render(request, template, context, status=400 if error and not request.htmx else 200)
    if request.method == "POST" and not error:
        response["HX-Push-Url"] = reverse("studies:chapter_edit", args=[slug, row.number]) + (
            f"?at={at}" if at else ""
        )
    return response


@require_GET
def chapter_svg(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A chapter's start position as an SVG image, for other pages to embed."""
    study = _study(request, slug)
    row = _chapter(study, number)
    parsed = row.parsed()
    board = parsed.start_board()
    svg = board_svg(board, guides=True, title=f"{row.title} ({study.title})")
    link = request.build_absolute_uri(row.get_absolute_url())
    # The image links back to the chapter (an <a> inside the SVG, for <object> embeds).
    svg = svg.replace(
        "aria-label=", 'xmlns:xlink="http://www.w3.org/1999/xlink" aria-label=', 1
    ).replace("</svg>", f'<a href="{link}"><title>{row.title}</title></a></svg>')
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "public, max-age=300"
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response
