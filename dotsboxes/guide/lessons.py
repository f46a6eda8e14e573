"""The diagrams of the rules page and the strategy guide.

Rules diagrams are built by playing real edges on a real board, so the
pictures show who drew what in the players' colours and can only show what
the rules allow.  Strategy diagrams reuse the positions of the studies (which
the test suite checks against the solver) and carry the position key for the
"try it" link to the play page.
"""

# ruff: noqa: RUF001, RUF003 - the texts use real typography (multiplication sign, en dash).

from __future__ import annotations

from dataclasses import dataclass

from django.utils.safestring import SafeString
from django.utils.translation import gettext

from dotsboxes.engine.analysis import analyse
from dotsboxes.rules import Board, Edge, parse_record

from .boards import diagram, try_url
from .exercises import BY_SLUG as EXERCISES
from .studies import BY_SLUG as STUDIES


@dataclass(frozen=True)
class Figure:
    svg: SafeString
    caption: str
    url: str = ""  # the "try it" link: the play page starting from this position
    board: Board | None = None  # the position drawn (the tests check the captions on it)


def _played(width: int, height: int, edges: str) -> Board:
    board = Board(width, height)
    for text in edges.split():
        board.play(text)
    return board


def _figure(board: Board, caption: str, *, highlight=(), last_turn=(), title=None) -> Figure:
    return Figure(
        diagram(board, highlight=highlight, last_turn=last_turn, title=title or caption),
        caption,
        try_url(board),
        board,
    )


def _last_turn(board: Board) -> list[Edge]:
    """The edges of the last turn: the trailing run drawn by the same player."""
    replay = Board(board.width, board.height)
    movers = []
    for edge in board.move_stack:
        movers.append(replay.turn)
        replay.push(edge)
    stack = board.move_stack
    run = []
    for edge, mover in zip(reversed(stack), reversed(movers), strict=True):
        if run and mover is not movers[-1]:
            break
        run.append(edge)
    return run


def _score(board: Board) -> str:
    blue, red = board.scores
    return f"{blue}–{red}"


#: The end of the "13–12" study with best play on both sides (the tests replay it).
CLOSEST_FINISH = (
    "a3-b3 a2-a3 a3-a4 a1-a2 b1-b2 c1-c2 d1-e1 d1-d2 a5-a6 b5-b6 c6-d6 c5-c6 "
    "e3-f3 e4-f4 e5-f5 e6-f6 f2-f3"
)


def rules_figures() -> dict[str, Figure]:
    """Every diagram of the rules page, by name."""
    empty = Board(5, 5)
    opening = _played(3, 3, "a1-b1 c3-c4 b2-c2 d1-d2")
    fourth = _played(2, 1, "a1-b1 a2-b2 a1-a2 b1-b2")
    double_before = _played(2, 1, "a1-b1 b1-c1 a2-b2 b2-c2 a1-a2 c1-c2")
    double_after = double_before.copy()
    double_after.play("b1-b2")
    again = _played(2, 2, "a1-b1 a2-b2 a1-a2 c1-c2 a3-b3 b1-b2 b3-c3")
    notation = Board(3, 3)
    # Red takes the left box, then leaves the other two to Blue instead of taking them.
    optional = _played(3, 1, "a1-b1 a2-b2 b1-c1 b2-c2 c1-d1 c2-d2 a1-a2 b1-b2 d1-d2")
    # Twelve edges that close nothing: every edge Blue can draw now gives Red a box.
    no_pass = _played(
        3, 3, "a1-b1 b4-c4 c2-d2 a3-b3 b1-c1 c4-d4 a2-b2 b3-c3 c1-d1 a4-b4 b2-c2 c3-d3"
    )
    tie = _played(2, 2, "a1-b1 b1-c1 a3-b3 b3-c3 a2-a3 c2-c3 a2-b2 b2-c2 b2-b3 a1-a2 b1-b2 c1-c2")
    closest = STUDIES["thirteen-twelve"].board.copy()
    for edge in CLOSEST_FINISH.split():
        closest.play(edge)
    return {
        "empty": _figure(empty, gettext("5 × 5 boxes: 6 × 6 dots and 60 edges to draw.")),
        "opening": _figure(
            opening,
            gettext(
                "Four edges into a game on 3 × 3 boxes: each edge is drawn in the colour of "
                "the player who drew it."
            ),
        ),
        "fourth": _figure(
            fourth,
            gettext("Red draws b1-b2, the fourth side of the left box, and claims it."),
            last_turn=["b1-b2"],
        ),
        "double_before": _figure(
            double_before,
            gettext("Both boxes miss only b1-b2 (dashed)."),
            highlight=["b1-b2"],
        ),
        "double_after": _figure(
            double_after,
            gettext("Blue draws it and claims both boxes with one edge."),
            last_turn=["b1-b2"],
        ),
        "again": _figure(
            again,
            gettext(
                "Red claimed the bottom-left box with b1-b2, so Red moved again and drew b3-c3 "
                "(the edges of that turn are thicker)."
            ),
            last_turn=_last_turn(again),
        ),
        "notation": _figure(
            notation,
            gettext("The bottom-left box's bottom side is a1-b1 and its left side a1-a2 (dashed)."),
            highlight=["a1-b1", "a1-a2"],
        ),
        "optional": _figure(
            optional,
            gettext(
                "Red claimed the left box with b1-b2 and could have taken the next one with "
                "c1-c2, but drew d1-d2 instead and left both boxes to Blue. That is allowed."
            ),
            last_turn=_last_turn(optional),
        ),
        "no_pass": _figure(
            no_pass,
            gettext(
                "Blue to move. Every edge left gives a box its third side, so whatever Blue "
                "draws hands Red boxes; Blue must still draw one."
            ),
        ),
        "tie": _figure(tie, gettext("A tie on 2 × 2 boxes: %(score)s.") % {"score": _score(tie)}),
        "closest": _figure(
            closest,
            gettext("The closest finish on 5 × 5 boxes: Blue wins %(score)s.")
            % {"score": _score(closest)},
        ),
    }


def _study(slug: str, caption: str, *, highlight=()) -> Figure:
    study = STUDIES[slug]
    return _figure(study.board, caption, highlight=highlight)


#: The first 37 edges of a 5 × 5 game between two club-level computer players: Blue to
#: move, 5–4 up, two safe moves left.  No box was taken by a double-cross (one edge
#: claiming two), so the dots form of the long-chain rule applies (the tests check it).
COUNT_GAME = (
    "f2-f3 e5-e6 d2-e2 e3-f3 a3-a4 c1-c2 c5-c6 d2-d3 b5-b6 d4-d5 c3-c4 d5-d6 a3-b3 "
    "c4-c5 c2-d2 e5-f5 b3-b4 a4-b4 d6-e6 d5-e5 a4-a5 a5-a6 a2-b2 b4-c4 b3-c3 f3-f4 "
    "e3-e4 e4-f4 c2-c3 c3-d3 e4-e5 d4-e4 f4-f5 b2-b3 a2-a3 b2-c2 e1-e2"
)


def count_game() -> Board:
    """The position of the strategy guide's worked count (see :data:`COUNT_GAME`)."""
    return _played(5, 5, COUNT_GAME)


def strategy_figures() -> dict[str, Figure]:
    """Every diagram of the strategy guide, by name."""
    early = parse_record(EXERCISES["replay-the-last-safe-edge"].record).board()
    early_board = Board(early.width, early.height)
    for edge in early.move_stack[:6]:
        early_board.push(edge)
    safe = analyse(early_board).safe_edges
    return {
        "safe": _figure(
            early_board,
            gettext(
                "Six edges in: the %(safe)d dashed edges are safe, the other %(unsafe)d would "
                "give a box its third side."
            )
            % {"safe": len(safe), "unsafe": len(early_board.legal_moves) - len(safe)},
            highlight=safe,
        ),
        "last_safe": _study(
            "the-last-safe-edge",
            gettext(
                "Red to move: a1-b1 and a1-a2 are the last safe edges, and only one of them "
                "can be drawn."
            ),
            highlight=["a1-b1", "a1-a2"],
        ),
        "no_safe": _study(
            "give-the-smallest",
            gettext(
                "No safe edge left: a lone box (top left), a chain of three and a chain of four."
            ),
            highlight=["a3-a4", "a4-b4"],
        ),
        "chains_loops": _study(
            "loop-before-chain",
            gettext("A loop of four boxes (the 2 × 2 block) and a chain of three."),
        ),
        "count": _study(
            "three-chains-of-three",
            gettext(
                "3 × 3 boxes, 16 dots, three long chains: 16 + 3 = 19 is odd, good for the "
                "second player."
            ),
        ),
        "count_game": _figure(
            count_game(),
            gettext("Blue to move, 5–4 up. The four dashed edges are the last safe ones."),
            highlight=analyse(count_game()).safe_edges,
            last_turn=["e1-e2"],
        ),
        "count_five": _study(
            "open-the-loop",
            gettext(
                "5 × 5: a chain of three, a chain of five and a loop. Two long chains; the loop "
                "does not count."
            ),
        ),
        "double_deal": _study(
            "all-but-two",
            gettext(
                "Blue has taken two boxes of the top chain; e2-e3 (dashed) gives the last two away."
            ),
            highlight=["e2-e3"],
        ),
        "loop_deal": _study(
            "all-but-four",
            gettext(
                "Red has taken two boxes of the opened loop; c3-d3 (dashed) leaves the last four "
                "to Blue as two pairs."
            ),
            highlight=["c3-d3"],
        ),
        "sacrifice": _study(
            "sacrifice-to-win-control",
            gettext(
                "Blue gives away b1 with b1-b2 (dashed), so that the bottom row can never "
                "become a second chain of four."
            ),
            highlight=["b1-b2"],
        ),
        "handout": _study(
            "hard-hearted-handout",
            gettext("b2-b3 (dashed) hands over the pair so that it cannot be refused."),
            highlight=["b2-b3"],
        ),
        "continuations": _study(
            "decline-the-handout",
            gettext("Taking the two offered boxes loses; b3-c3 (dashed) wins."),
            highlight=["b3-c3"],
        ),
    }
