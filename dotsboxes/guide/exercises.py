"""Practice exercises in three tracks, answered on the board.

* Edge questions ("draw the edge that…") are checked against the value of
  every legal move, precomputed by the engine's exact solver and stored in
  ``answers.json``: any move of optimal value is right.  The positions are
  fixed, so the answers are computed once (``python -m dotsboxes.guide.answers``)
  and the test suite recomputes them with the solver; a request never runs the
  engine.
* Rules questions ("who moves next?", "how many boxes does it claim?") are
  answered by the rules core itself, at the moment of checking.
* Replay questions show a real game record and ask for a better move at the
  moment a chain was opened.
"""

# ruff: noqa: RUF001 - the texts use real typography (multiplication sign, en dash).

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.utils.translation import gettext_noop

from dotsboxes.rules import Board, Edge, parse_record

from .positions import from_picture

# The texts here are marked with gettext_noop: the data stays English (the tests
# read it) and each page shows it through gettext, in the reader's language.
TRACKS = (
    (
        "rules",
        gettext_noop("The rules"),
        gettext_noop("Draw and close boxes, count claims, say who owns a box and who moves."),
    ),
    (
        "control",
        gettext_noop("Keeping control"),
        gettext_noop("Compare candidate moves and find the one that keeps control."),
    ),
    (
        "replay",
        gettext_noop("Replays"),
        gettext_noop("Step through a real game and fix the move that opened a chain."),
    ),
)
TRACK_NAMES = {slug: name for slug, name, _ in TRACKS}

CHOICES = {
    "next": (("blue", gettext_noop("Blue")), ("red", gettext_noop("Red"))),
    "owner": (("blue", gettext_noop("Blue")), ("red", gettext_noop("Red"))),
    "claims": (("0", gettext_noop("None")), ("1", gettext_noop("One")), ("2", gettext_noop("Two"))),
    "build": (
        ("blue-blue", gettext_noop("Blue owns it; Blue draws next")),
        ("blue-red", gettext_noop("Blue owns it; Red draws next")),
        ("red-red", gettext_noop("Red owns it; Red draws next")),
        ("red-blue", gettext_noop("Red owns it; Blue draws next")),
    ),
}


@dataclass(frozen=True)
class Exercise:
    slug: str
    track: str
    title: str
    prompt: str
    right: str  # why the right answer is right, in a sentence or two
    wrong: str  # what to look for instead, in a sentence or two
    picture: str = ""
    turn: str = "blue"
    record: str = ""  # replay track: the whole game
    ply: int = 0  # replay track: the question is asked after this many edges
    # "edge", a rules question ("next", "claims", "owner"), or "build": draw the four
    # sides of box ``box`` one by one, then say who owns it and who draws next.
    kind: str = "edge"
    box: int = 0
    edge: str = ""  # rules questions: the edge being asked about (drawn dashed)
    best: frozenset[str] = frozenset()  # edge questions: every move of optimal value

    @cached_property
    def board(self) -> Board:
        """The position the question is asked in."""
        if self.record:
            game = parse_record(self.record).board()
            board = Board(game.width, game.height)
            for edge in game.move_stack[: self.ply]:
                board.push(edge)
            return board
        return from_picture(self.picture, turn=self.turn)

    @property
    def choices(self) -> tuple[tuple[str, str], ...]:
        return CHOICES.get(self.kind, ())

    def built(self, edges: list[str]) -> Board:
        """A build exercise's board after the edges drawn so far (checked by the rules)."""
        board = self.board.copy()
        for edge in edges:
            board.play(edge)
        return board

    def box_sides(self) -> set[str]:
        return {str(e) for e in self.board.box_edges(self.box)}

    def correct_choice(self, board: Board | None = None) -> str:
        """The answer to a rules question, worked out by the rules core."""
        if self.kind == "build":
            owner = board.owner(self.box) if board is not None else None
            if owner is None:
                raise ValueError("the box is not finished yet")
            return f"{owner.name.lower()}-{board.turn.name.lower()}"
        board = self.board.copy()
        edge = Edge.parse(self.edge)
        if self.kind == "claims":
            return str(board.claims(edge))
        claimed = board.play(edge)
        if self.kind == "next":
            return board.turn.name.lower()
        if self.kind == "owner":
            owner = board.owner(claimed[0])
            return owner.name.lower() if owner is not None else ""
        raise ValueError(f"{self.slug} is not a rules question")

    @property
    def mistake(self) -> str:
        """Replay track: the edge that was actually played at the question's moment."""
        if not self.record:
            return ""
        return str(parse_record(self.record).edges[self.ply])


_REPLAY_A = """Dots and Boxes
Size: 3 x 3 boxes (4 x 4 dots)
Blue: Ada
Red: Ben

1. b1-b2  2. c2-c3  3. d2-d3  4. c1-d1  5. d3-d4  6. b2-b3  7. a3-a4  8. c1-c2
9. b3-b4  10. c3-c4  11. a2-a3  12. b4-c4  13. b3-c3, b2-c2, b1-c1, a1-a2
14. a1-b1  15. a2-b2, a4-b4  16. a3-b3, c2-d2  17. c3-d3, c4-d4, d1-d2
"""

_REPLAY_B = """Dots and Boxes
Size: 4 x 2 boxes (5 x 3 dots)
Blue: Cleo
Red: Dev

1. b2-b3  2. c1-d1  3. c3-d3  4. d2-e2  5. b1-c1  6. d1-e1  7. c2-d2  8. a1-b1
9. b2-c2  10. a2-b2  11. d3-e3  12. a1-a2
13. b1-b2, c1-c2, d1-d2, e1-e2, a2-a3  14. a3-b3, b3-c3
15. c2-c3, d2-d3, e2-e3
"""

EXERCISES: tuple[Exercise, ...] = (
    # -- the rules -------------------------------------------------------------
    Exercise(
        slug="draw-a-box",
        track="rules",
        title=gettext_noop("Draw a box"),
        kind="build",
        picture="""
+   +   +

+   +   +
""",
        prompt=(
            gettext_noop(
                "Draw the four sides of the left box, one at a time. You draw for both players: "
                "Blue draws first, then the turn passes after every edge that claims nothing."
            )
        ),
        right=(
            gettext_noop(
                "Blue and Red took turns, so Red drew the fourth side: the box is Red's, and "
                "because Red claimed it, Red draws again."
            )
        ),
        wrong=(
            gettext_noop(
                "Look at the colour of the fourth side: whoever drew it owns the box, and a "
                "claim keeps the move."
            )
        ),
    ),
    Exercise(
        slug="draw-the-missing-sides",
        track="rules",
        title=gettext_noop("Draw the missing sides"),
        kind="build",
        picture="""
+---+   +
        |
+   +   +
""",
        prompt=(
            gettext_noop(
                "Two edges are drawn and it is Blue's turn. Draw the three missing sides of the "
                "left box one at a time, for both players, then say who owns it."
            )
        ),
        right=(
            gettext_noop(
                "Blue, Red, Blue: Blue drew the fourth side, so the box is Blue's, and the claim "
                "gives Blue the next edge too."
            )
        ),
        wrong=(
            gettext_noop(
                "Follow the turns: each edge that closes nothing passes the turn, and the player "
                "who draws the fourth side owns the box and moves again."
            )
        ),
    ),
    Exercise(
        slug="close-a-box",
        track="rules",
        title=gettext_noop("Close a box"),
        picture="""
+---+   +
|
+---+   +
""",
        prompt=gettext_noop("The left box has three sides. Draw its fourth side to claim it."),
        right=gettext_noop("A box belongs to whoever draws its fourth side, and Blue moves again."),
        wrong=gettext_noop(
            "Count the sides of the left box: only one of its edges is still missing."
        ),
        best=frozenset({"b1-b2"}),
    ),
    Exercise(
        slug="who-moves-after-a-claim",
        track="rules",
        title=gettext_noop("Who moves after a claim?"),
        kind="next",
        edge="b1-b2",
        picture="""
+---+   +
|
+---+   +
""",
        prompt=gettext_noop(
            "Blue draws the dashed edge, closing the left box. Who draws the next edge?"
        ),
        right=gettext_noop("Blue again: closing a box earns another move."),
        wrong=gettext_noop(
            "Closing a box does not pass the turn: the player who claimed moves again."
        ),
    ),
    Exercise(
        slug="who-moves-after-a-plain-edge",
        track="rules",
        title=gettext_noop("Who moves after a plain edge?"),
        kind="next",
        edge="c1-c2",
        picture="""
+---+   +
|
+---+   +
""",
        prompt=gettext_noop(
            "Blue draws the dashed edge, which closes nothing. Who draws the next edge?"
        ),
        right=gettext_noop("Red: an edge that closes no box passes the turn."),
        wrong=gettext_noop(
            "Only a claim keeps the move. This edge completes no box, so the turn passes."
        ),
    ),
    Exercise(
        slug="one-edge-two-boxes",
        track="rules",
        title=gettext_noop("One edge, two boxes"),
        picture="""
+---+---+   +
|       |
+---+---+   +
""",
        prompt=gettext_noop("Draw the edge that claims two boxes at once."),
        right=gettext_noop("b1-b2 is the fourth side of both boxes, so it claims both."),
        wrong=gettext_noop("Look for the one edge that both three-sided boxes are missing."),
        best=frozenset({"b1-b2"}),
    ),
    Exercise(
        slug="count-a-double-claim",
        track="rules",
        title=gettext_noop("Count a claim"),
        kind="claims",
        edge="b2-b3",
        picture="""
+---+---+
|       |
+---+---+

+---+---+
""",
        prompt=gettext_noop("How many boxes does the dashed edge claim?"),
        right=gettext_noop("Two: it is the last missing side of both top boxes."),
        wrong=gettext_noop(
            "Check both boxes that the dashed edge touches: each has its other three sides."
        ),
    ),
    Exercise(
        slug="whose-box",
        track="rules",
        title=gettext_noop("Whose boxes?"),
        kind="owner",
        edge="b1-b2",
        turn="red",
        picture="""
+---+---+   +
|       |
+---+---+   +
""",
        prompt=gettext_noop("Red draws the dashed edge. Who owns the boxes it closes?"),
        right=gettext_noop(
            "Red: boxes belong to whoever draws their last side, whoever drew the others."
        ),
        wrong=gettext_noop(
            "It does not matter who drew the first three sides: the fourth side decides."
        ),
    ),
    # -- keeping control ----------------------------------------------------------
    Exercise(
        slug="smallest-first",
        track="control",
        title=gettext_noop("Smallest first"),
        picture="""
+   +   +---+---+
    |
+---+---+---+---+

+---+---+---+---+
""",
        prompt=(
            gettext_noop(
                "No safe edge is left: a lone box, a chain of three and a chain of four. "
                "Draw the edge that gives away the least."
            )
        ),
        right=(
            gettext_noop(
                "Giving the lone box costs one; Red must then open a long chain and Blue keeps "
                "control to the end, winning 5–3."
            )
        ),
        wrong=(
            gettext_noop(
                "Opening a long chain lets Red take all but two of it and keep control. "
                "Give the smallest piece first."
            )
        ),
        best=frozenset({"a2-a3", "a3-b3"}),
    ),
    Exercise(
        slug="hand-over-a-pair",
        track="control",
        title=gettext_noop("Hand over a pair"),
        picture="""
+---+   +   +
        |   |
+---+---+   +
        |   |
+---+   +   +
|       |   |
+   +---+   +
""",
        prompt=(
            gettext_noop(
                "No safe edge is left: a pair in the top-left corner and chains of three and "
                "four. Find the move that wins control."
            )
        ),
        right=(
            gettext_noop(
                "b3-b4 splits the pair so Red cannot refuse it: Red takes two, must open a "
                "chain, and Blue wins 5–4."
            )
        ),
        wrong=(
            gettext_noop(
                "Give the pair, but by the edge between its two boxes: an outer edge lets Red "
                "seal the pair for you and keep control."
            )
        ),
        best=frozenset({"b3-b4"}),
    ),
    Exercise(
        slug="refuse-the-pair",
        track="control",
        title=gettext_noop("Refuse the pair"),
        picture="""
+---+   +---+---+
|       | B | R |
+---+---+---+---+

+---+---+---+---+

+---+---+---+---+
""",
        prompt=gettext_noop("Red offers the top-left pair. Find the move that keeps control."),
        right=(
            gettext_noop(
                "b4-c4 leaves both boxes to Red, who must then open a chain of four; Blue keeps "
                "control and wins 7–5."
            )
        ),
        wrong=(
            gettext_noop(
                "Taking the pair makes you open a chain next. Seal the pair instead so that "
                "one edge takes both boxes, and let Red have them."
            )
        ),
        best=frozenset({"b4-c4"}),
    ),
    Exercise(
        slug="leave-two",
        track="control",
        title=gettext_noop("Leave two"),
        turn="red",
        picture="""
+---+---+---+---+
| R | R |
+---+---+---+---+

+---+---+---+---+

+---+---+---+---+
""",
        prompt=(
            gettext_noop(
                "Blue opened the top chain and Red has taken two of its boxes. Find the move "
                "that keeps control."
            )
        ),
        right=(
            gettext_noop(
                "e3-e4 gives the last two boxes away so that Blue must open the next chain: "
                "Red wins 8–4."
            )
        ),
        wrong=(
            gettext_noop(
                "Taking the last two boxes means you open the next chain. Draw the far edge so "
                "one edge takes both, and let Blue have them."
            )
        ),
        best=frozenset({"e3-e4"}),
    ),
    Exercise(
        slug="take-the-last-chain",
        track="control",
        title=gettext_noop("The last chain"),
        picture="""
+---+---+---+
|
+---+---+---+
| B | R | R |
+---+---+---+
| R | B | B |
+---+---+---+
""",
        prompt=gettext_noop("Red has opened the last chain on the board. Find the best move."),
        right=(
            gettext_noop(
                "b3-b4 starts taking all three boxes. With no other chain to play for, giving "
                "boxes back gains nothing: Blue wins 6–3."
            )
        ),
        wrong=(
            gettext_noop(
                "Keeping control only pays while another chain is left. This is the last one: "
                "take everything."
            )
        ),
        best=frozenset({"b3-b4"}),
    ),
    Exercise(
        slug="loop-first",
        track="control",
        title=gettext_noop("Loop first"),
        picture="""
+---+---+---+
            |
+---+---+   +
|       |   |
+   +   +   +
|       |   |
+---+---+   +
""",
        prompt=gettext_noop(
            "A loop of four and a chain of five are left. Lose as little as possible."
        ),
        right=(
            gettext_noop(
                "Opening the loop costs less: Red keeps control only by giving back all four "
                "of its boxes, and Blue loses just 4–5."
            )
        ),
        wrong=(
            gettext_noop(
                "Opening the chain lets Red keep control for the price of two boxes. Make Red "
                "pay four instead: open the loop."
            )
        ),
        best=frozenset({"a2-b2", "b1-b2", "b2-b3", "b2-c2"}),
    ),
    Exercise(
        slug="refuse-on-five-by-five",
        track="control",
        title=gettext_noop("Refuse on 5 × 5"),
        turn="red",
        picture="""
+---+---+   +---+   +
            | R |   |
+---+---+---+---+   +
| B | R | B | R |   |
+---+---+---+---+   +
    | B | R | B |   |
+   +---+---+---+   +
|   | R | B | R |
+---+---+---+---+---+
                | B |
+---+---+---+   +---+
""",
        prompt=(
            gettext_noop(
                "6–6. Blue has offered the pair on the left edge by drawing its outer side a2-a3. "
                "Find Red's best move."
            )
        ),
        right=(
            gettext_noop(
                "a3-a4 seals the pair so that one edge takes both boxes. Blue collects them but "
                "must then open a long chain, and Red keeps control to win 13–12."
            )
        ),
        wrong=(
            gettext_noop(
                "Taking the pair leaves you to open a long chain. Refuse it: draw the pair's "
                "other outer side, so that Blue has to take both boxes with one edge."
            )
        ),
        best=frozenset({"a3-a4"}),
    ),
    Exercise(
        slug="five-by-five-endgame",
        track="control",
        title=gettext_noop("A 5 × 5 endgame"),
        picture="""
+---+---+---+---+---+

+---+---+---+---+---+
| B | R | B | R |
+---+---+---+---+   +
    | B | R | B |   |
+   +---+---+---+   +
    | R | B | R |
+---+---+---+---+---+

+---+---+---+---+---+
""",
        prompt=(
            gettext_noop(
                "5–5, with chains of five, three and five and a pair on the left edge. Find the "
                "move that keeps control."
            )
        ),
        right=(
            gettext_noop(
                "a3-b3 hands over the pair so it cannot be refused; Red must open the long "
                "chains and Blue wins 14–11."
            )
        ),
        wrong=(
            gettext_noop(
                "Every edge gives something away; the pair is the cheapest gift, but only the "
                "edge between its boxes stops Red from refusing it."
            )
        ),
        best=frozenset({"a3-b3"}),
    ),
    # -- replays ----------------------------------------------------------------
    Exercise(
        slug="replay-the-last-safe-edge",
        track="replay",
        title=gettext_noop("Ada against Ben"),
        record=_REPLAY_A,
        ply=11,
        prompt=(
            gettext_noop(
                "At edge 12, Ben (Red) opened the middle column and Ada took it. Step through the "
                "game, then draw the move Ben should have played instead."
            )
        ),
        right=(
            gettext_noop(
                "The bottom-left box could still take a side safely. After it, Ada would have "
                "had to open the first chain, and Ben would have won 5–4."
            )
        ),
        wrong=(
            gettext_noop(
                "Look for an edge that gives no box its third side: one box still has only one "
                "side drawn."
            )
        ),
        best=frozenset({"a1-b1", "a1-a2"}),
    ),
    Exercise(
        slug="replay-the-long-chain",
        track="replay",
        title=gettext_noop("Cleo against Dev"),
        record=_REPLAY_B,
        ply=11,
        prompt=(
            gettext_noop(
                "At edge 12, Dev (Red) opened the bottom chain of four and lost 1–7. Step "
                "through the game, then draw a better move for Dev."
            )
        ),
        right=(
            gettext_noop(
                "Giving the lone box first makes Cleo open a long chain; Dev keeps control "
                "and wins 5–3."
            )
        ),
        wrong=(
            gettext_noop(
                "With no safe edge left, give the smallest piece: one box costs less than a "
                "chain, and it makes the other player move next."
            )
        ),
        best=frozenset({"a2-a3", "a3-b3"}),
    ),
)

BY_SLUG = {exercise.slug: exercise for exercise in EXERCISES}


def track_exercises(track: str) -> list[Exercise]:
    return [e for e in EXERCISES if e.track == track]


def next_exercise(exercise: Exercise) -> Exercise | None:
    """The exercise after this one in the same track, then the next track's first."""
    index = EXERCISES.index(exercise)
    return EXERCISES[index + 1] if index + 1 < len(EXERCISES) else None
