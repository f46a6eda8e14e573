"""The study text format: every study written reads back the same, and bad text is named."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dotsboxes.rules import Board
from dotsboxes.studies.notation import (
    Chapter,
    Node,
    Question,
    Study,
    StudyFormatError,
    format_study,
    parse_study,
)

# Line ends are "\n" in a stored study (forms send "\r\n"; services normalise them).
text = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\r"), max_size=30)
one_line = (
    st.text(st.characters(exclude_categories=("Cs", "Zl", "Zp", "Cc")), min_size=1, max_size=20)
    .map(str.strip)
    .filter(bool)
)


@st.composite
def lines(draw, board: Board, node: Node, depth: int) -> None:
    """Grow a main line (and, sometimes, variations) below ``node`` on ``board``."""
    for _ in range(draw(st.integers(0, 6))):
        moves = board.legal_moves
        if not moves:
            return
        count = 1 if depth > 2 else draw(st.integers(1, 3))
        picked = draw(st.lists(st.sampled_from(moves), min_size=1, max_size=count, unique=True))
        children = []
        for edge in picked:
            child = Node(
                edge,
                comment=draw(text),
                best=draw(st.booleans()),
                blue=draw(st.none() | st.integers(0, board.num_boxes)),
            )
            node.children.append(child)
            children.append(child)
        for child in children[1:]:
            branch = board.copy()
            branch.play(child.edge)
            draw(lines(branch, child, depth + 1))
        board.play(children[0].edge)
        node = children[0]


@st.composite
def chapters(draw) -> Chapter:
    w, h = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    board = Board(w, h)
    start_key = ""
    if draw(st.booleans()):
        for edge in draw(st.permutations(board.legal_moves))[: draw(st.integers(0, 5))]:
            board.play(edge)
        start_key = Board.from_key(board.key()).key()
        board = Board.from_key(start_key)
    questions = []
    if board.legal_moves and draw(st.booleans()):
        questions.append(Question("best", str(draw(st.sampled_from(board.legal_moves)))))
    if draw(st.booleans()):
        questions.append(Question("blue", draw(st.sampled_from(["", str(board.scores[0])]))))
    if draw(st.booleans()):
        questions.append(Question("control", draw(st.sampled_from(["", "blue", "red"]))))
    root = Node(comment=draw(text), blue=draw(st.none() | st.integers(0, w * h)))
    draw(lines(board.copy(), root, 0))
    return Chapter(draw(one_line), w, h, start_key, questions, root)


studies = st.builds(Study, one_line, text, st.lists(chapters(), max_size=3))


@settings(max_examples=150, deadline=None)
@given(studies)
def test_every_study_reads_back_the_same_and_writes_the_same_text(study):
    written = format_study(study)
    assert parse_study(written) == study
    assert format_study(parse_study(written)) == written


def test_a_pasted_game_record_is_a_study_of_one_chapter_whose_main_line_is_the_game():
    study = parse_study(
        "Dots and Boxes\nSize: 1 x 2 boxes (2 x 3 dots)\nBlue: Ada\nRed: Bo\n\n"
        "1. a1-b1  2. a2-b2  3. a3-b3  4. a1-a2  5. b1-b2, a2-a3  6. b2-b3\n"
    )
    (chapter,) = study.chapters
    assert (chapter.width, chapter.height) == (1, 2)
    main = [n.edge for n in chapter.root.walk() if n.edge]
    assert [str(e) for e in main] == ["a1-b1", "a2-b2", "a3-b3", "a1-a2", "b1-b2", "a2-a3", "b2-b3"]
    board = chapter.start_board()
    for edge in main:
        board.play(edge)
    assert board.is_over() and board.scores == (1, 1)


def test_comments_variations_and_claims_hang_where_they_are_written():
    study = parse_study(
        "Dots and Boxes study\nTitle: T\n\nChapter: C\nSize: 2 x 1 boxes\nQuestion: best a1-b1\n\n"
        "{start} 1. a1-b1 ! {main} (1. a1-a2 {other} [blue 0]) 2. b1-c1\n"
    )
    root = study.chapters[0].root
    assert root.comment == "start"
    main, other = root.children
    assert (str(main.edge), main.best, main.comment) == ("a1-b1", True, "main")
    assert (str(other.edge), other.comment, other.blue) == ("a1-a2", "other", 0)
    assert [str(c.edge) for c in main.children] == ["b1-c1"]
    assert study.chapters[0].questions == [Question("best", "a1-b1")]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("1. a1-b1 2. a1-b1", "drawn"),
        ("1. a1-b1 3. a1-a2", "expected 2."),
        ("1. a1-b1, a1-a2", "comma joins edges of one turn"),
        ("1. a1-b1 (1. a1-a2", "never closed"),
        ("1. a1-b1 )", "without its"),
        ("1. z9-z8", "z9"),
        ("1. a1-b1 [blue 9]", "cannot take 9"),
        ("1. a1-b1 {one} {two}", "two comments"),
        ("! 1. a1-b1", "before the first edge"),
    ],
)
def test_bad_moves_are_refused_with_the_line_and_the_reason(body, says):
    with pytest.raises(StudyFormatError, match=says) as caught:
        parse_study(f"Dots and Boxes study\nTitle: T\n\nChapter: C\nSize: 2 x 1 boxes\n\n{body}\n")
    assert caught.value.line == 7


def test_a_study_without_any_size_is_refused():
    with pytest.raises(StudyFormatError, match="no 'Chapter:' and no 'Size:'"):
        parse_study("Blue: Ada\n\n1. a1-b1\n")


def test_the_example_in_the_docs_reads_and_its_claims_hold():
    from pathlib import Path

    from dotsboxes.engine import solver

    docs = (Path(__file__).parents[2] / "docs" / "STUDIES.md").read_text()
    example = docs.split("```\n")[1]
    study = parse_study(example)
    assert format_study(study) == example
    (chapter,) = study.chapters
    start = chapter.start_board()
    solution = solver.solve(start)
    assert chapter.questions[0].answer in {str(e) for e in solution.best}
    assert int(chapter.questions[1].answer) == (start.num_boxes + solution.value) // 2
    assert chapter.root.blue == int(chapter.questions[1].answer)
