"""Commands on studies: one function per action, each atomic, each checking its input.

Views and the import page call these; none runs the engine (claims are checked
by :mod:`.checks` jobs, asked for once the change commits).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from dotsboxes.rules import Board, Edge
from dotsboxes.rules.errors import RulesError

from . import checks, notation
from .models import MAX_CHAPTER_CHARS, MAX_CHAPTERS, Chapter, ChapterProgress, Study

MAX_SIZE = 9


class StudyError(Exception):
    """A change refused; the message is for people."""


def clean_text(text: str) -> str:
    """Line ends as the format stores them."""
    return (text or "").replace("\r\n", "\n").replace("\r", "\n")


def _format_error(exc: Exception) -> StudyError:
    return StudyError(_("The study text cannot be read: %(error)s") % {"error": exc})


def study_create(*, owner, title: str, description: str = "", visibility: str = "private") -> Study:
    return Study.objects.create(
        owner=owner,
        title=title.strip()[:120] or _("Untitled study"),
        description=clean_text(description).strip(),
        visibility=visibility,
    )


def study_update(*, study: Study, title: str, description: str, visibility: str) -> Study:
    study.title = title.strip()[:120] or study.title
    study.description = clean_text(description).strip()
    study.visibility = visibility
    study.save()
    return study


def study_import(*, owner, text: str, visibility: str = "private") -> Study:
    """A new study from its text (or a plain game record, which becomes one chapter)."""
    try:
        parsed = notation.parse_study(clean_text(text))
    except notation.StudyFormatError as exc:
        raise _format_error(exc) from None
    if not parsed.chapters:
        raise StudyError(_("The study has no chapter."))
    with transaction.atomic():
        study = study_create(
            owner=owner,
            title=parsed.title,
            description=parsed.description,
            visibility=visibility,
        )
        for chapter in parsed.chapters:
            _append(study, chapter)
    return study


def study_export(study: Study) -> str:
    return notation.format_study(study.as_notation())


def study_copy(*, study: Study, owner) -> Study:
    """Another player's own copy, private until they share it."""
    with transaction.atomic():
        copy = Study.objects.create(
            owner=owner,
            title=study.title,
            description=study.description,
            visibility=Study.Visibility.PRIVATE,
            copied_from=study,
        )
        Chapter.objects.bulk_create(
            Chapter(study=copy, number=c.number, title=c.title, text=c.text)
            for c in study.chapters.all()
        )
    return copy


def _append(study: Study, chapter: notation.Chapter) -> Chapter:
    if study.chapters.count() >= MAX_CHAPTERS:
        raise StudyError(_("A study has at most %(n)d chapters.") % {"n": MAX_CHAPTERS})
    last = study.chapters.aggregate(n=Max("number"))["n"] or 0
    row = Chapter(study=study, number=last + 1, title=chapter.title[:120])
    _store(row, chapter)
    return row


def _store(row: Chapter, chapter: notation.Chapter) -> None:
    try:
        text = notation.format_chapter(chapter)
    except notation.StudyFormatError as exc:
        raise _format_error(exc) from None
    if len(text) > MAX_CHAPTER_CHARS:
        raise StudyError(
            _("A chapter's text is at most %(n)d characters.") % {"n": MAX_CHAPTER_CHARS}
        )
    row.title, row.text = chapter.title, text
    row.save()
    keys = checks.positions(chapter)
    transaction.on_commit(lambda: checks.request_checks(keys))


@dataclass
class Source:
    """Where a new chapter starts: one of an empty board, a position key, a game, a record."""

    size: str = ""  # "5x5"
    position: str = ""
    game: str = ""  # a game's public id or link
    ply: int | None = None
    record: str = ""


def start_of(source: Source, *, actor=None, staff: bool = False) -> notation.Chapter:
    """The chapter a source gives: its start position and, for a game or a record, its main line."""
    if source.record.strip():
        try:
            parsed = notation.parse_study(clean_text(source.record))
        except notation.StudyFormatError as exc:
            raise _format_error(exc) from None
        if not parsed.chapters:
            raise StudyError(_("The record has no size line."))
        return parsed.chapters[0]
    if source.game.strip():
        return _from_game(source.game.strip(), source.ply, actor=actor, staff=staff)
    if source.position.strip():
        try:
            board = Board.from_key(source.position.strip())
        except RulesError as exc:
            raise StudyError(str(exc)) from None
        if max(board.width, board.height) > MAX_SIZE:
            raise StudyError(_("Boards go up to %(n)d boxes a side.") % {"n": MAX_SIZE})
        return notation.Chapter("", board.width, board.height, board.key())
    try:
        w, h = (int(n) for n in (source.size or "5x5").lower().split("x"))
        Board(w, h)
    except (ValueError, RulesError):
        raise StudyError(
            _("A size is written like 5x5 (boxes), from 1 to %(n)d a side.") % {"n": MAX_SIZE}
        ) from None
    return notation.Chapter("", w, h)


def _from_game(text: str, ply: int | None, *, actor, staff: bool) -> notation.Chapter:
    from dotsboxes.analysis.services import may_view
    from dotsboxes.games.models import Game

    public_id = text.rstrip("/").rsplit("/", 1)[-1]
    if "/" in text.rstrip("/") and public_id in ("replay", "analysis"):
        public_id = text.rstrip("/").rsplit("/", 2)[-2]
    game = Game.objects.filter(public_id=public_id).first()
    if game is None or actor is None or not may_view(game, actor, staff=staff):
        raise StudyError(_("There is no game %(id)s that you may see.") % {"id": public_id})
    edges = [Edge.parse(e) for e in game.moves.order_by("ply").values_list("edge", flat=True)]
    ply = len(edges) if ply is None else ply
    if not 0 <= ply <= len(edges):
        raise StudyError(
            _("That game has %(n)d edges: the ply is from 0 to %(n)d.") % {"n": len(edges)}
        )
    board = game.start_board()
    for edge in edges[:ply]:
        board.play(edge)
    start = Board.from_key(board.key())
    chapter = notation.Chapter("", start.width, start.height, start.key() if ply else "")
    if game.start_key and not ply:
        chapter.start_key = start.key()
    node = chapter.root
    for edge in edges[ply:]:  # the rest of the game is the main line
        node.children.append(notation.Node(edge))
        node = node.children[0]
    return chapter


def chapter_add(
    *, study: Study, title: str, source: Source, actor=None, staff: bool = False
) -> Chapter:
    chapter = start_of(source, actor=actor, staff=staff)
    chapter.title = title.strip()[:120] or _("Chapter %(n)d") % {"n": study.chapters.count() + 1}
    with transaction.atomic():
        Study.objects.select_for_update().filter(pk=study.pk).first()
        row = _append(study, chapter)
        study.save(update_fields=["updated_at"])
    return row


def _locked(chapter: Chapter, version: int | str | None) -> Chapter:
    row = Chapter.objects.select_for_update().get(pk=chapter.pk)
    if str(version) != str(row.version):
        raise StudyError(
            _(
                "This chapter was changed meanwhile (in another tab?): nothing was saved. "
                "Here it is as it stands now."
            )
        )
    return row


def chapter_save_text(*, chapter: Chapter, text: str, version) -> Chapter:
    """Replace the chapter with its text as the author wrote it."""
    text = clean_text(text).strip()
    if not text.lower().startswith("chapter:"):
        text = f"Chapter: {chapter.title}\n{text}"
    try:
        parsed = notation.parse_study(f"{notation.TITLE}\nTitle: x\n\n{text}\n")
    except notation.StudyFormatError as exc:
        raise _format_error(exc) from None
    if len(parsed.chapters) != 1:
        raise StudyError(_("A chapter's text holds one chapter: one 'Chapter:' line."))
    return _save(chapter, version, parsed.chapters[0])


def _save(chapter: Chapter, version, parsed: notation.Chapter) -> Chapter:
    with transaction.atomic():
        row = _locked(chapter, version)
        row.version += 1
        _store(row, parsed)
        Study.objects.filter(pk=row.study_id).update(updated_at=timezone.now())
    return row


def node_at(chapter: notation.Chapter, path: str) -> tuple[notation.Node, Board, list[int]]:
    """The node a path names, the board after it and the path as indices (StudyError if none)."""
    indices = []
    node, board = chapter.root, chapter.start_board()
    for part in filter(None, (path or "").split(".")):
        if not part.isascii() or not part.isdigit() or int(part) >= len(node.children):
            raise StudyError(_("There is no such move in this chapter."))
        indices.append(int(part))
        node = node.children[int(part)]
        board.play(node.edge)
    return node, board, indices


def chapter_draw(*, chapter: Chapter, version, path: str, edge_text: str) -> tuple[Chapter, str]:
    """Draw an edge after the node at ``path``: it goes on the line, or becomes a variation.

    Returns the chapter and the new node's path (an edge already there is followed).
    """
    parsed = chapter.parsed()
    node, board, indices = node_at(parsed, path)
    if board.is_over():
        raise StudyError(_("The game is over here: there is no edge left to draw."))
    try:
        edge = board.parse_edge(edge_text.strip())
        board.play(edge)
    except RulesError as exc:
        raise StudyError(str(exc)) from None
    for i, child in enumerate(node.children):
        if child.edge == edge:
            return chapter, checks.path_text((*indices, i))
    node.children.append(notation.Node(edge))
    row = _save(chapter, version, parsed)
    return row, checks.path_text((*indices, len(node.children) - 1))


def chapter_annotate(
    *, chapter: Chapter, version, path: str, comment: str, best: bool, blue: int | None
) -> Chapter:
    """Set the comment and the claims of the node at ``path`` (the start takes no '!')."""
    parsed = chapter.parsed()
    node, board, _indices = node_at(parsed, path)
    if blue is not None and not 0 <= blue <= board.num_boxes:
        raise StudyError(_("Blue's boxes are a number from 0 to %(n)d.") % {"n": board.num_boxes})
    node.comment = clean_text(comment).strip()
    node.best = bool(best and node.edge is not None)
    node.blue = blue
    return _save(chapter, version, parsed)


def chapter_cut(*, chapter: Chapter, version, path: str) -> tuple[Chapter, str]:
    """Delete the node at ``path`` and everything after it; returns its parent's path."""
    parsed = chapter.parsed()
    _node, _board, indices = node_at(parsed, path)
    if not indices:
        raise StudyError(_("The start position cannot be deleted."))
    parent, _b, _i = node_at(parsed, checks.path_text(indices[:-1]))
    del parent.children[indices[-1]]
    return _save(chapter, version, parsed), checks.path_text(indices[:-1])


def chapter_promote(*, chapter: Chapter, version, path: str) -> tuple[Chapter, str]:
    """Make the variation at ``path`` the main line at its branch."""
    parsed = chapter.parsed()
    _node, _board, indices = node_at(parsed, path)
    if not indices or indices[-1] == 0:
        raise StudyError(_("That move is on the main line already."))
    parent, _b, _i = node_at(parsed, checks.path_text(indices[:-1]))
    parent.children.insert(0, parent.children.pop(indices[-1]))
    return _save(chapter, version, parsed), checks.path_text((*indices[:-1], 0))


def chapter_delete(*, chapter: Chapter) -> None:
    with transaction.atomic():
        study = Study.objects.select_for_update().get(pk=chapter.study_id)
        chapter.delete()
        for n, row in enumerate(study.chapters.order_by("number"), start=1):
            if row.number != n:
                Chapter.objects.filter(pk=row.pk).update(number=n)
        study.save(update_fields=["updated_at"])


def study_delete(*, study: Study) -> None:
    study.delete()


def study_set_listed(*, study: Study, listed: bool) -> None:
    """Staff: take a study off the public list (or give it back)."""
    study.unlisted_by_staff = not listed
    study.save(update_fields=["unlisted_by_staff"])


def study_set_featured(*, study: Study, featured: bool) -> None:
    """Staff: show a public study in the guide."""
    if featured and not study.is_listed:
        raise StudyError(_("Only a public study can be featured in the guide."))
    study.featured = featured
    study.save(update_fields=["featured"])


@dataclass
class Answer:
    correct: bool | None  # None: cannot be judged yet
    message: str
    proved: bool = False


def answer_question(*, chapter: Chapter, number: int, answer: str, user=None) -> Answer:
    """Judge a reader's answer to question ``number`` (1-based) against the solver."""
    from dotsboxes.engine.analysis import analyse
    from dotsboxes.games.wording import player_name

    parsed = chapter.parsed()
    if not 1 <= number <= len(parsed.questions):
        raise StudyError(_("There is no such question."))
    question = parsed.questions[number - 1]
    board = parsed.start_board()
    rows = checks.rows_for([board.key()])
    row = rows.get(board.key())
    result = row.result if row and row.status == row.Status.DONE else None
    answer = (answer or "").strip()
    if question.kind == "best":
        try:
            edge = board.parse_edge(answer)
            if board.is_drawn(edge):
                raise RulesError(_("%(edge)s is drawn already.") % {"edge": edge})
        except RulesError as exc:
            raise StudyError(str(exc)) from None
        if result and str(edge) in result.get("exact_edges", ()) and result.get("exact"):
            best = result["best"]
            if str(edge) in best:
                outcome = Answer(
                    True,
                    _("Right: %(edge)s is a best move (proved by the solver).") % {"edge": edge},
                    proved=True,
                )
            else:
                lost = (result["value"] - result["values"][str(edge)]) // 2
                text = ngettext(
                    "No: %(edge)s gives away %(n)d box; best is %(best)s (proved by the solver).",
                    "No: %(edge)s gives away %(n)d boxes; best is %(best)s (proved by the solver).",
                    lost,
                )
                outcome = Answer(
                    False, text % {"edge": edge, "n": lost, "best": ", ".join(best)}, proved=True
                )
        elif question.answer:
            right = str(edge) == question.answer
            outcome = Answer(
                right,
                (
                    _("Right, as the author says (not proved by the solver).")
                    if right
                    else _("The author's answer is another edge (not proved by the solver).")
                ),
            )
        else:
            return Answer(
                None, _("The solver is still checking this position: try again in a moment.")
            )
    elif question.kind == "blue":
        if not answer.isascii() or not answer.isdigit():
            raise StudyError(_("Answer with a number of boxes."))
        truth = checks.blue_final(board, result)
        if truth is not None:
            right = int(answer) == truth
            outcome = Answer(
                right,
                _("Right: Blue takes %(n)d boxes (proved by the solver).") % {"n": truth}
                if right
                else _("No: with best play Blue ends with %(n)d boxes (proved by the solver).")
                % {"n": truth},
                proved=True,
            )
        elif question.answer:
            right = int(answer) == int(question.answer)
            outcome = Answer(
                right,
                _("Right, as the author says (not proved by the solver).")
                if right
                else _("The author's answer is another number (not proved by the solver)."),
            )
        else:
            return Answer(
                None, _("The solver is still checking this position: try again in a moment.")
            )
    else:
        if answer not in ("blue", "red"):
            raise StudyError(_("Answer Blue or Red."))
        controller = analyse(board).controller
        if controller is None:
            return Answer(None, _("The chain count cannot tell yet who gets control here."))
        right = answer == controller.name.lower()
        outcome = Answer(
            right,
            (
                _("Right: %(side)s gets control (by counting long chains).")
                if right
                else _("No: %(side)s gets control (by counting long chains).")
            )
            % {"side": player_name(controller)},
        )
    if user is not None and user.is_authenticated:
        with transaction.atomic():
            progress, _created = ChapterProgress.objects.select_for_update().get_or_create(
                user=user, chapter=chapter
            )
            progress.answers = {**progress.answers, str(number): bool(outcome.correct)}
            progress.save()
    return outcome
