"""The solver's word on every claim a study makes.

A claim is what an author writes in a chapter: an edge marked ``!`` (a best
move in the position before it), a value ``[blue N]`` (with best play from this
position Blue ends with N boxes), or the answer given to a question about the
start position.  Each is settled by the values of one position, which the
:data:`check` job (background lane of :mod:`dotsboxes.jobs`, never a request)
asks of :func:`dotsboxes.engine.board_values.deep` within ``STUDY_CHECK_SECONDS``
and stores in a :class:`PositionCheck` row.  Pages read the rows and turn
them into verdicts: **proved** and **refuted** only from the solver's exact
values; anything else is **not proved** (the solver did not settle it in
time) or **pending** (not checked yet).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from dotsboxes.rules import Board, Player

from . import notation
from .jobs import is_running, start_check
from .models import PositionCheck

#: A check not finished after this long (its server died) is started again by the next page.
STALE_SECONDS = 300
#: Claims checked in one chapter at most: the others stay "not checked" (no flood of work).
MAX_CLAIMS = 40

PROVED, REFUTED, NOT_PROVED, PENDING = "proved", "refuted", "not_proved", "pending"


@dataclass
class Claim:
    kind: str  # "best" or "blue"
    key: str  # the position whose values settle it
    path: str  # the node it is written on ("" for the start, "0.1" …)
    edge: str = ""  # the edge said to be best
    blue: int | None = None  # Blue's boxes, said
    question: bool = False  # the author's answer to a question


@dataclass
class Verdict:
    status: str
    better: str = ""  # a refuted best move: an edge that does better
    truth: int | None = None  # a refuted value: Blue's boxes with best play
    loss: int = 0  # a refuted best move: the boxes it gives away


def path_text(path: tuple[int, ...]) -> str:
    return ".".join(str(i) for i in path)


def nodes(chapter: notation.Chapter):
    """Every node with its path and the board *after* it, main line first."""
    stack = [((), chapter.root, chapter.start_board())]
    while stack:
        path, node, board = stack.pop()
        yield path, node, board
        for i in reversed(range(len(node.children))):
            child = node.children[i]
            after = board.copy(stack=False)
            after.play(child.edge)
            stack.append(((*path, i), child, after))


def claims(chapter: notation.Chapter) -> list[Claim]:
    """The chapter's claims in reading order (at most :data:`MAX_CLAIMS`)."""
    found: list[Claim] = []
    start = chapter.start_board()
    for q in chapter.questions:
        if q.kind == "best" and q.answer:
            found.append(Claim("best", start.key(), "", edge=q.answer, question=True))
        elif q.kind == "blue" and q.answer:
            found.append(Claim("blue", start.key(), "", blue=int(q.answer), question=True))
    before: dict[tuple[int, ...], str] = {}
    for path, node, board in nodes(chapter):
        before_key = before.get(path[:-1], "")
        if node.best:
            found.append(Claim("best", before_key, path_text(path), edge=str(node.edge)))
        if node.blue is not None:
            found.append(Claim("blue", board.key(), path_text(path), blue=node.blue))
        before[path] = board.key()
    return found[:MAX_CLAIMS]


def positions(chapter: notation.Chapter) -> list[str]:
    """The positions the solver must value: every claim's, and the start's if asked about."""
    keys = [c.key for c in claims(chapter)]
    if chapter.questions:
        keys.insert(0, chapter.start_board().key())
    return list(dict.fromkeys(keys))


def blue_final(board: Board, result: dict | None) -> int | None:
    """Blue's boxes at the end with best play from ``board``: None unless proved."""
    if board.is_over():
        return board.scores[0]
    if not result or not result.get("exact"):
        return None
    value = result["value"] if board.turn is Player.BLUE else -result["value"]
    return board.scores[0] + (board.unclaimed + value) // 2


def verdict(claim: Claim, rows: dict[str, PositionCheck]) -> Verdict:
    """What the stored checks say about ``claim``."""
    board = Board.from_key(claim.key)
    if claim.kind == "blue" and board.is_over():
        truth = board.scores[0]
        return Verdict(PROVED) if truth == claim.blue else Verdict(REFUTED, truth=truth)
    row = rows.get(claim.key)
    if row is None or row.status in (PositionCheck.Status.QUEUED, PositionCheck.Status.RUNNING):
        return Verdict(PENDING)
    result = row.result if row.status == PositionCheck.Status.DONE else None
    if claim.kind == "blue":
        truth = blue_final(board, result)
        if truth is None:
            return Verdict(NOT_PROVED)
        return Verdict(PROVED) if truth == claim.blue else Verdict(REFUTED, truth=truth)
    if not result:
        return Verdict(NOT_PROVED)
    values, exact = result.get("values", {}), set(result.get("exact_edges", ()))
    if claim.edge not in exact:
        return Verdict(NOT_PROVED)
    proved_better = [e for e in exact if values[e] > values[claim.edge]]
    if proved_better:
        better = max(proved_better, key=lambda e: (values[e], e))
        return Verdict(REFUTED, better=better, loss=(values[better] - values[claim.edge]) // 2)
    return Verdict(PROVED) if len(exact) == len(values) else Verdict(NOT_PROVED)


def badge(verdicts: list[Verdict]) -> str:
    """A chapter's badge: refuted if any claim is, proved if every one is, else not checked."""
    statuses = {v.status for v in verdicts}
    if REFUTED in statuses:
        return REFUTED
    if statuses == {PROVED}:
        return PROVED
    return PENDING if PENDING in statuses else NOT_PROVED


def rows_for(keys) -> dict[str, PositionCheck]:
    return {row.key: row for row in PositionCheck.objects.filter(key__in=set(keys))}


def request_checks(keys) -> None:
    """Make sure each position is checked or being checked."""
    for key in sorted(set(keys)):
        if Board.from_key(key).is_over():
            continue  # a finished board needs no solver
        with transaction.atomic():
            row, created = PositionCheck.objects.get_or_create(key=key)
            if not created:
                row = PositionCheck.objects.select_for_update().get(pk=row.pk)
            lost = (
                row.status in (PositionCheck.Status.QUEUED, PositionCheck.Status.RUNNING)
                and row.updated_at < timezone.now() - timedelta(seconds=STALE_SECONDS)
                and not is_running(key)
            )
            if created or lost or row.status == PositionCheck.Status.FAILED:
                row.status = PositionCheck.Status.QUEUED
                row.save(update_fields=["status", "updated_at"])
                transaction.on_commit(lambda key=key: start_check(key))
