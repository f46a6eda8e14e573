"""Position studies: a position, a question, and an answer with its reasoning.

Every study records the set of best moves (``best``: every move of optimal
value) and the value of the position for the side to move (``value``: the
final margin over the boxes still unclaimed, with best play on both sides).
The test suite checks both against the engine's exact solver, so a study
that claims something the game does not bear out fails the build.
"""

# ruff: noqa: RUF001 - the texts use real typography (multiplication sign, en dash).

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.utils.translation import gettext_noop

from dotsboxes.rules import Board

from .positions import from_picture


def _moves(text: str) -> frozenset[str]:
    return frozenset(text.split())


@dataclass(frozen=True)
class Study:
    slug: str
    title: str
    level: str  # "First steps", "Control" or "Expert"
    picture: str
    turn: str
    question: str
    answer: str
    reasoning: tuple[str, ...]
    best: frozenset[str]
    value: int
    # "move": the answer is a move (its edges are marked when revealed);
    # "result": the answer is the result, and every move is as good as another.
    kind: str = "move"
    # What the reasoning says other moves lead to: (moves, (Blue, Red) final score with
    # best play after the best of those moves).  The tests check each against the solver,
    # and every score written in the texts must be one of these or the answer's.
    lines: tuple[tuple[frozenset[str], tuple[int, int]], ...] = ()

    @cached_property
    def board(self) -> Board:
        return from_picture(self.picture, turn=self.turn)

    @property
    def key(self) -> str:
        return self.board.key()


STUDIES: tuple[Study, ...] = (
    Study(
        slug="two-boxes-one-edge",
        title=gettext_noop("Two boxes with one edge"),
        level=gettext_noop("First steps"),
        picture="""
+---+---+
|       |
+---+---+

+---+---+
""",
        turn="blue",
        question=gettext_noop(
            "Blue to move. Which edge claims two boxes at once, and what happens next?"
        ),
        answer=gettext_noop("b2-b3, the edge between the two top boxes."),
        reasoning=(
            gettext_noop(
                "Each top box has three sides drawn, and the side they both miss is the same "
                "edge, b2-b3. Drawing it closes both boxes: two points for Blue from one edge."
            ),
            gettext_noop(
                "Closing a box keeps the move, so Blue must draw again. Every edge left touches "
                "the bottom pair, so Red gets those two and the game ends 2–2. Any other first "
                "move is worse: it gives Red a box, and Red then collects all four."
            ),
        ),
        best=frozenset({"b2-b3"}),
        value=0,
        lines=((_moves("a1-a2 b1-b2 c1-c2"), (0, 4)),),
    ),
    Study(
        slug="the-last-safe-edge",
        title=gettext_noop("The last safe edge"),
        level=gettext_noop("First steps"),
        picture="""
+   +   +   +
|   |   |   |
+   +   +   +
|   |   |   |
+   +   +   +
    |   |
+   +   +---+
""",
        turn="red",
        question=gettext_noop(
            "Red to move. Which edges are still safe, giving no box its third side?"
        ),
        answer=gettext_noop("a1-b1 or a1-a2: the bottom-left box has only one side drawn."),
        reasoning=(
            gettext_noop(
                "Every other edge touches a box that already has two sides, so drawing it would "
                "offer Blue a box. The bottom-left box can take one more side safely, and that "
                "is the last safe move of the game."
            ),
            gettext_noop(
                "After it, each column is a chain of three boxes and Blue must open one. Red "
                "takes one box, leaves the last two for Blue, does the same with the second "
                "chain and takes the whole third: Red wins 5–4. If Red gave a box away now "
                "instead, Blue would play the safe edge and Red would be the one opening chains."
            ),
        ),
        best=frozenset({"a1-b1", "a1-a2"}),
        value=1,
    ),
    Study(
        slug="give-the-smallest",
        title=gettext_noop("Give away the smallest piece"),
        level=gettext_noop("First steps"),
        picture="""
+   +   +---+
    |       |
+---+---+   +
    | R |
+   +---+---+
|
+---+---+---+
""",
        turn="blue",
        question=(
            gettext_noop(
                "No safe edge is left and Blue must give something away: the lone box top "
                "left, the chain of three or the chain of four. Which?"
            )
        ),
        answer=gettext_noop("The lone box: draw a3-a4 or a4-b4."),
        reasoning=(
            gettext_noop(
                "The lone box costs one box. Red takes it and, having claimed, must move again, "
                "and every edge now opens one of the two long chains."
            ),
            gettext_noop(
                "Whichever Red opens, Blue takes all but two of it, leaves those two for Red, "
                "and takes the whole other chain at the end: Blue finishes 5–4. Opening a long "
                "chain first would let Red play the same way against Blue."
            ),
        ),
        best=frozenset({"a3-a4", "a4-b4"}),
        value=2,
    ),
    Study(
        slug="three-chains-of-three",
        title=gettext_noop("Three chains of three"),
        level=gettext_noop("First steps"),
        picture="""
+---+---+---+

+---+---+---+

+---+---+---+

+---+---+---+
""",
        turn="blue",
        question=(
            gettext_noop(
                "Twelve edges are drawn, no box is claimed, and Blue must open a chain. "
                "With best play, who wins, and by how much?"
            )
        ),
        answer=gettext_noop("Red wins 5–4, whatever Blue does."),
        reasoning=(
            gettext_noop(
                "Each row is a chain of three boxes. Red answers the first chain Blue opens by "
                "taking one box and leaving the last two, sealed so that one edge takes both. "
                "Blue takes them and must open the second chain; Red does the same again, and "
                "takes the whole third chain: 1 + 1 + 3 = 5 for Red, 2 + 2 = 4 for Blue."
            ),
            gettext_noop(
                "The long-chain rule predicts it: a 3 × 3 box board has 16 dots, and 16 plus 3 "
                "long chains is odd, which is what the second player wants."
            ),
        ),
        best=frozenset(
            {
                "a1-a2",
                "b1-b2",
                "c1-c2",
                "d1-d2",
                "a2-a3",
                "b2-b3",
                "c2-c3",
                "d2-d3",
                "a3-a4",
                "b3-b4",
                "c3-c4",
                "d3-d4",
            }
        ),
        value=-1,
        kind="result",
    ),
    Study(
        slug="all-but-two",
        title=gettext_noop("All but two"),
        level=gettext_noop("Control"),
        picture="""
+---+---+---+---+
| B | B |
+---+---+---+---+

+---+---+---+---+
""",
        turn="blue",
        question=(
            gettext_noop(
                "Red opened the top chain and Blue has taken two of its boxes. Two are left, "
                "and a chain of four waits below. Take the last two, or not?"
            )
        ),
        answer=gettext_noop("Not: draw e2-e3 and leave both boxes to Red."),
        reasoning=(
            gettext_noop(
                "If Blue takes both, Blue must draw again, and every edge left opens the bottom "
                "chain: Red takes four and the game ends 4–4."
            ),
            gettext_noop(
                "e2-e3 seals the last two boxes so that one edge takes both. Red takes them, "
                "but then Red must open the bottom chain and Blue takes all four: 6–2. Giving "
                "two boxes back bought the rest of the board. This is the all-but-two trick, "
                "also called double-dealing."
            ),
        ),
        best=frozenset({"e2-e3"}),
        value=2,
        lines=((_moves("d2-d3"), (4, 4)),),
    ),
    Study(
        slug="the-last-chain",
        title=gettext_noop("The last chain: take everything"),
        level=gettext_noop("Control"),
        picture="""
+---+---+---+---+
| B |
+---+---+---+---+
| R | R | B | B |
+---+---+---+---+
""",
        turn="blue",
        question=gettext_noop(
            "Red has opened the last chain. How many of its boxes should Blue take?"
        ),
        answer=gettext_noop("All three, starting with c2-c3."),
        reasoning=(
            gettext_noop(
                "Leaving the last two boxes is only worth it when it forces your opponent to "
                "open another chain. Nothing is left after this one, so giving boxes back "
                "gains nothing: take all three and win 6–2."
            ),
        ),
        best=frozenset({"c2-c3"}),
        value=3,
    ),
    Study(
        slug="decline-the-handout",
        title=gettext_noop("Decline the offer"),
        level=gettext_noop("Control"),
        picture="""
+---+   +---+---+---+
|       | R | B | R |
+---+---+---+---+---+

+---+---+---+---+---+
""",
        turn="blue",
        question=(
            gettext_noop(
                "Red has offered the two top-left boxes by drawing their left side. "
                "Should Blue take them?"
            )
        ),
        answer=gettext_noop("No: draw b3-c3, the top of the second box, and let Red have both."),
        reasoning=(
            gettext_noop(
                "Taking the pair means Blue moves next, and every edge left opens the chain of "
                "five along the bottom: Red takes all five and wins 7–3."
            ),
            gettext_noop(
                "b3-c3 leaves both boxes needing the same edge. Red takes them, must move "
                "again, and opens the bottom chain: Blue takes five and wins 6–4. Red's "
                "mistake was how the pair was offered: drawing b2-b3, between the two boxes, "
                "would have given Blue no useful way to refuse."
            ),
        ),
        best=frozenset({"b3-c3"}),
        value=3,
        lines=((_moves("b2-b3"), (3, 7)),),
    ),
    Study(
        slug="hard-hearted-handout",
        title=gettext_noop("Hand over two boxes the right way"),
        level=gettext_noop("Control"),
        picture="""
+---+   +---+---+
        | B | R |
+---+---+---+---+

+---+---+---+---+
""",
        turn="blue",
        question=(
            gettext_noop(
                "No safe edge is left. Blue can give the two top-left boxes or open the chain "
                "of four. Which edge?"
            )
        ),
        answer=gettext_noop("b2-b3, the edge between the two top-left boxes."),
        reasoning=(
            gettext_noop(
                "Opening the bottom chain gives Red four boxes. The pair costs only two, but "
                "the way it is given matters. b2-b3 gives each box its third side separately, "
                "so Red cannot refuse usefully: Red takes both, must open the bottom chain, "
                "and Blue takes four. Blue wins 5–3. This is called a hard-hearted handout."
            ),
            gettext_noop(
                "Drawing an outer side of the pair (a2-a3 or b3-c3) lets Red refuse it: Red "
                "seals the two boxes for Blue, and Blue must open the bottom chain. Blue would "
                "lose 3–5."
            ),
        ),
        best=frozenset({"b2-b3"}),
        value=2,
        lines=(
            (_moves("a2-a3 b3-c3"), (3, 5)),
            (_moves("a1-a2 b1-b2 c1-c2 d1-d2 e1-e2"), (3, 5)),
        ),
    ),
    Study(
        slug="sacrifice-to-win-control",
        title=gettext_noop("A sacrifice that wins control"),
        level=gettext_noop("Control"),
        picture="""
+   +---+---+   +
|               |
+---+---+---+---+

+   +---+   +---+
""",
        turn="blue",
        question=(
            gettext_noop(
                "No box is taken yet and three edges are still safe. The top row is a chain of "
                "four. What should Blue play?"
            )
        ),
        answer=gettext_noop("b1-b2 (or c1-c2): give Red the box b1."),
        reasoning=(
            gettext_noop(
                "Count first. The board has 15 dots, so Blue, the first player, wants an odd "
                "number of long chains. There is one now, but the safe edges left (a1-b1, a1-a2, "
                "c1-d1) all turn the bottom row into a second chain of four: 15 + 2 is odd, "
                "Red's number. Playing safe, Blue ends up opening a long chain and loses 2–6; "
                "opening the top chain at once loses too, 3–5."
            ),
            gettext_noop(
                "b1-b2 offers b1. Red takes it with c1-c2 and must move again, and now the bottom "
                "row can never be a chain: it is a single box (a1) and a pair (c1 and d1). One "
                "long chain, 15 + 1 even: Red hands out one short piece, Blue the other, and "
                "Red has to open the chain of four. One box given, four won: Blue wins 5–3."
            ),
        ),
        best=frozenset({"b1-b2", "c1-c2"}),
        value=2,
        lines=(
            (_moves("a1-b1 a1-a2 c1-d1"), (2, 6)),
            (_moves("a3-b3 b2-b3 c2-c3 d2-d3 d3-e3"), (3, 5)),
        ),
    ),
    Study(
        slug="loop-before-chain",
        title=gettext_noop("A loop or a chain first?"),
        level=gettext_noop("Control"),
        picture="""
+---+---+   +---+
|       |       |
+   +   +---+   +
|       | R |   |
+---+---+---+   +
""",
        turn="blue",
        question=(
            gettext_noop(
                "No safe edge is left. Should Blue open the loop of four boxes (the 2 × 2 "
                "block) or the chain of three?"
            )
        ),
        answer=gettext_noop("The loop: any of the four edges inside the block."),
        reasoning=(
            gettext_noop(
                "If Blue opens the chain, Red takes one box and leaves two, keeping control; "
                "Blue must then open the loop and Red takes all four. Blue loses 2–6."
            ),
            gettext_noop(
                "A loop is expensive to keep control of: Red would have to leave all four of "
                "its boxes to Blue. That costs more than the chain of three is worth, so Red "
                "takes the four and opens the chain, and Blue takes three: 3–5. Blue still "
                "loses, but by less. The player without control gives loops before chains."
            ),
        ),
        best=frozenset({"a2-b2", "b2-c2", "b1-b2", "b2-b3"}),
        value=-1,
        lines=((_moves("c3-d3 d2-d3 d2-e2 d1-e1"), (2, 6)),),
    ),
    Study(
        slug="is-control-worth-it",
        title=gettext_noop("Is control worth keeping?"),
        level=gettext_noop("Control"),
        picture="""
+---+---+   +---+
|       |       |
+   +   +---+   +
|   |   | R |   |
+---+---+---+   +
""",
        turn="red",
        question=(
            gettext_noop(
                "Blue has opened the loop (the edge b1-b2). Red can take all four of its boxes, "
                "or take none and leave four to keep control. Which is better?"
            )
        ),
        answer=gettext_noop("Take all four, starting with a2-b2 or b2-c2."),
        reasoning=(
            gettext_noop(
                "Keeping control would mean giving Blue four boxes to win the chain of three "
                "afterwards: four for Blue against three for Red, and the game ends 4–4."
            ),
            gettext_noop(
                "Taking the four and then opening the chain of three for Blue gives Red a 5–3 win. "
                "Control is worth what the remaining chains bring, minus what it costs to keep; "
                "here keeping it costs more than it brings."
            ),
        ),
        best=frozenset({"a2-b2", "b2-c2"}),
        value=1,
        lines=((_moves("b2-b3"), (4, 4)),),
    ),
    Study(
        slug="all-but-four",
        title=gettext_noop("All but four in a loop"),
        level=gettext_noop("Expert"),
        picture="""
+---+---+---+   +
| R |       |   |
+---+---+   +   +
| R |       |   |
+---+---+---+   +
                |
+---+---+---+---+
""",
        turn="red",
        question=(
            gettext_noop(
                "Blue opened the loop of six and Red has taken two of its boxes. Four are left, "
                "and a chain of six waits. What now?"
            )
        ),
        answer=gettext_noop("c3-d3, the edge across the middle of the four boxes."),
        reasoning=(
            gettext_noop(
                "Taking all four would leave Red to open the chain of six: six boxes each."
            ),
            gettext_noop(
                "c3-d3 splits the four into two pairs, each waiting for one edge that takes "
                "both. Blue collects the four boxes but must then open the chain of six, and "
                "Red takes it whole: Red wins 8–4. In a chain you keep control by giving back "
                "two boxes; in a loop it costs four, because its last boxes lie between two "
                "open ends and can only be sealed off as two pairs."
            ),
        ),
        best=frozenset({"c3-d3"}),
        value=2,
        lines=((_moves("c2-c3 c3-c4"), (6, 6)),),
    ),
    Study(
        slug="thirteen-twelve",
        title=gettext_noop("13–12"),
        level=gettext_noop("Expert"),
        picture="""
+---+---+   +---+   +
            | R |   |
+---+---+---+---+   +
| B | R | B | R |   |
+---+---+---+---+   +
    | B | R | B |   |
+   +---+---+---+   +
    | R | B | R |
+---+---+---+---+---+
                | B |
+---+---+---+   +---+
""",
        turn="blue",
        question=(
            gettext_noop(
                "It is 6–6 with thirteen boxes left: chains of three, four and four, and a pair "
                "on the left edge. Every edge gives something away. Find the move that wins."
            )
        ),
        answer=gettext_noop(
            "a3-b3: hand over the pair on the left edge by the edge between its boxes."
        ),
        reasoning=(
            gettext_noop(
                "Red takes the two boxes but must move again, and now every edge opens a long "
                "chain. Blue answers the first two chains with all-but-two and takes the whole "
                "last one: seven of the thirteen for Blue, who wins 13–12, the closest result "
                "possible on 5 × 5 boxes (25 boxes cannot be split evenly)."
            ),
            gettext_noop(
                "Offering the pair by an outer side (a2-a3 or a3-a4) lets Red refuse it and "
                "keep control, and Blue loses 12–13. Opening a long chain loses 10–15."
            ),
        ),
        best=frozenset({"a3-b3"}),
        value=1,
        lines=(
            (_moves("a2-a3 a3-a4"), (12, 13)),
            (
                _moves(
                    "a5-a6 b5-b6 c5-c6 c6-d6 e6-f6 e5-f5 e4-f4 e3-f3 f2-f3 "
                    "a1-a2 b1-b2 c1-c2 d1-d2 d1-e1"
                ),
                (10, 15),
            ),
        ),
    ),
    Study(
        slug="open-the-loop",
        title=gettext_noop("Which one decides the game?"),
        level=gettext_noop("Expert"),
        picture="""
+---+---+   +---+   +
            | R |   |
+---+---+---+---+   +
| B | R | B | R |   |
+---+---+---+---+   +
| B |       | B |   |
+---+   +   +---+   +
| R |       | B |   |
+---+---+---+---+   +
| B | B | R | B |   |
+---+---+---+---+   +
""",
        turn="blue",
        question=(
            gettext_noop(
                "Blue leads 8–5 and must open something: the loop of four in the middle, the "
                "chain of three at the top or the chain of five on the right. Which one?"
            )
        ),
        answer=gettext_noop("The loop (any edge inside it): Blue wins 14–11."),
        reasoning=(
            gettext_noop(
                "After the loop is opened, Red can take its four boxes, but must then open a "
                "chain, and Blue keeps control to the end; or Red can leave the four to Blue and "
                "keep control. Either way the last twelve boxes split six–six: 14–11."
            ),
            gettext_noop(
                "Opening the chain of three lets Red take all three and hand the loop back: "
                "Blue's best is then to leave the loop to Red and take the chain of five, and "
                "Blue wins only 13–12. Opening the chain of five is worse: Red takes all five, "
                "opens the loop, and Blue loses 12–13."
            ),
        ),
        best=frozenset({"b3-c3", "c2-c3", "c3-c4", "c3-d3"}),
        value=0,
        lines=(
            (_moves("a5-a6 b5-b6 c5-c6 c6-d6"), (13, 12)),
            (_moves("e1-f1 e2-f2 e3-f3 e4-f4 e5-f5 e6-f6"), (12, 13)),
        ),
    ),
)

BY_SLUG = {study.slug: study for study in STUDIES}
