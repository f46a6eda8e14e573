"""The guide's position studies as one study in the studies' text format.

Anyone may download them (``/learn/studies/as-text``), import the text at
``/studies/new`` and make the copy their own: a teacher can start a lesson from
the site's studies and correct or extend them, with the solver checking every
claim.  Each guide study becomes a chapter: its position, the question as the
start's comment, Blue's final boxes with best play as a claim, and the best moves
(marked ``!`` for a move question) with the answer and the reasoning as comment.
Texts are in the reader's language (the data file's translations).
"""

from __future__ import annotations

from django.utils.translation import gettext

from dotsboxes.rules import Edge, Player
from dotsboxes.studies import notation

from .studies import STUDIES, Study
from .texts import local


def blue_final(study: Study) -> int:
    """Blue's boxes at the end with best play from the study's position (its ``value``)."""
    board = study.board
    margin = study.value if board.turn is Player.BLUE else -study.value
    return board.scores[0] + (board.unclaimed + margin) // 2


def chapter(study: Study) -> notation.Chapter:
    board = study.board
    best = sorted(study.best, key=lambda e: board.index(Edge.parse(e)))
    questions = [notation.Question("blue", str(blue_final(study)))]
    if study.kind == "move":
        questions.insert(0, notation.Question("best", best[0]))
    explained = "\n\n".join(
        [local(study.answer)] + [local(paragraph) for paragraph in study.reasoning]
    )
    root = notation.Node(comment=local(study.question), blue=blue_final(study))
    for n, edge in enumerate(best):
        root.children.append(
            notation.Node(
                Edge.parse(edge),
                comment=explained if n == 0 else "",
                best=study.kind == "move",
            )
        )
    return notation.Chapter(
        local(study.title), board.width, board.height, board.key(), questions, root
    )


def guide_study() -> notation.Study:
    """Every guide study, in the guide's order."""
    return notation.Study(
        gettext("The guide's position studies"),
        gettext("The site's own studies, from first steps to expert play."),
        [chapter(s) for s in STUDIES],
    )
