"""Studies as text: the game record format (:mod:`dotsboxes.rules.notation`) with
chapters, comments, variations, claims and questions.  Pure: no Django here.

The grammar (docs/STUDIES.md says the same for authors)::

    study     := "Dots and Boxes study" NL "Title: " text NL [NL comment NL] chapter*
    chapter   := NL "Chapter: " text NL "Size: W x H boxes (W+1 x H+1 dots)" NL
                 ["Position: " key NL] ("Question: " question NL)* [NL body]
    question  := "best" [edge] | "blue" [number] | "control" ["blue" | "red"]
    body      := [comment] [value] line
    line      := (number? edge ","? annotation* variation*)*
    number    := N "." (the edge starts turn N) | N "..." (it goes on with turn N)
    annotation:= "!" (the author says: a best move) | comment | value
    value     := "[blue N]" (the author says: with best play from here Blue ends with N boxes)
    comment   := "{" text "}"   (inside, "\\", "{" and "}" are written "\\\\", "\\{", "\\}")
    variation := "(" line ")"   (instead of the edge just before it)

Turn numbers and commas are optional when reading (a plain record pasted in is
a main line), but when present they must be right.  The writer always puts
them in, so ``format_study(parse_study(text)) == text`` for what it writes and
``parse_study(format_study(study)) == study`` for every study.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from dotsboxes.rules import Board, Edge
from dotsboxes.rules.errors import RulesError

TITLE = "Dots and Boxes study"
LINE_WIDTH = 78
QUESTION_KINDS = ("best", "blue", "control")


class StudyFormatError(ValueError):
    """A study text that cannot be read; ``line`` is the 1-based line number where known."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


@dataclass
class Node:
    """A position reached by ``edge`` (``None`` for a chapter's start).

    ``children[0]`` is the main continuation, the others are variations.
    ``best`` and ``blue`` are the author's claims: the edge is a best move in the
    position before it; with best play from the position after it, Blue ends the
    game with ``blue`` boxes.
    """

    edge: Edge | None = None
    comment: str = ""
    best: bool = False
    blue: int | None = None
    children: list[Node] = field(default_factory=list)

    def walk(self):
        """This node and every node below it, depth first (main line first)."""
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass
class Question:
    """A question about a chapter's start position; ``answer`` is the author's ('' if none)."""

    kind: str
    answer: str = ""


@dataclass
class Chapter:
    title: str
    width: int = 5
    height: int = 5
    start_key: str = ""  # '' is the empty board, Blue to move
    questions: list[Question] = field(default_factory=list)
    root: Node = field(default_factory=Node)

    def start_board(self) -> Board:
        """A fresh board at the chapter's start position."""
        return Board.from_key(self.start_key) if self.start_key else Board(self.width, self.height)


@dataclass
class Study:
    title: str
    description: str = ""
    chapters: list[Chapter] = field(default_factory=list)


# -- writing ---------------------------------------------------------------------------


def escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}")


def _one_line(label: str, text: str) -> str:
    if "\n" in text or "\r" in text or text != text.strip() or not text:
        raise StudyFormatError(f"{label} {text!r} must be one line of text, not blank")
    return text


def format_question(question: Question) -> str:
    return f"{question.kind} {question.answer}".strip()


def format_study(study: Study) -> str:
    """The study as text (see the module docstring)."""
    out = [TITLE, f"Title: {_one_line('the title', study.title)}"]
    if study.description:
        out += ["", "{" + escape(study.description) + "}"]
    for chapter in study.chapters:
        out += ["", format_chapter(chapter).rstrip("\n")]
    return "\n".join(out) + "\n"


def format_chapter(chapter: Chapter) -> str:
    """One chapter as text, from its ``Chapter:`` line on (how the site stores it)."""
    out = [f"Chapter: {_one_line('a chapter title', chapter.title)}"]
    w, h = chapter.width, chapter.height
    out.append(f"Size: {w} x {h} boxes ({w + 1} x {h + 1} dots)")
    if chapter.start_key:
        out.append(f"Position: {chapter.start_key}")
    out += [f"Question: {format_question(q)}" for q in chapter.questions]
    tokens = body_tokens(chapter)
    if tokens:
        out.append("")
        out += _wrap(tokens)
    return "\n".join(out) + "\n"


def body_tokens(chapter: Chapter) -> list[str]:
    """A chapter's body as tokens: comments, claims, numbers, edges, brackets."""
    root = chapter.root
    tokens = []
    if root.comment:
        tokens.append("{" + escape(root.comment) + "}")
    if root.blue is not None:
        tokens.append(f"[blue {root.blue}]")
    if root.children:
        _line_tokens(tokens, Pos(chapter.start_board()), root, first=root.children[0])
    return tokens


class Pos:
    """A board and where its turn counting stands (turns count from 1 at a chapter's start)."""

    def __init__(self, board: Board, turn_no: int = 1, starts: bool = True) -> None:
        self.board, self.turn_no, self.starts = board, turn_no, starts

    def after(self, edge: Edge) -> Pos:
        board = self.board.copy()
        board.play(edge)
        if board.last_claimed and not board.is_over():
            return Pos(board, self.turn_no, False)
        return Pos(board, self.turn_no + 1, True)


def _line_tokens(tokens: list[str], pos: Pos, parent: Node, *, first: Node) -> None:
    node, need_number = first, True
    while node is not None:
        # A turn number stays on the line of its edge.
        if pos.starts:
            tokens.append(f"{pos.turn_no}. {node.edge}")
        elif need_number:
            tokens.append(f"{pos.turn_no}... {node.edge}")
        else:
            tokens.append(str(node.edge))
        annotated = node.best or node.comment or node.blue is not None
        if node.best:
            tokens.append("!")
        if node.comment:
            tokens.append("{" + escape(node.comment) + "}")
        if node.blue is not None:
            tokens.append(f"[blue {node.blue}]")
        variations = parent.children[1:] if node is parent.children[0] else []
        for other in variations:
            tokens.append("(")
            _line_tokens(tokens, pos, parent, first=other)
            tokens.append(")")
        nxt = Pos.after(pos, node.edge)
        following = node.children[0] if node.children else None
        need_number = bool(annotated or variations)
        if following is not None and not nxt.starts and not need_number:
            tokens[-1] += ","
        parent, node, pos = node, following, nxt


def _wrap(tokens: list[str]) -> list[str]:
    lines, row = [], ""
    for token in tokens:
        glue = "" if token == ")" or row.endswith("(") else " "
        if row and (len(row) + len(glue) + len(token) > LINE_WIDTH) and glue:
            lines.append(row)
            row = token
        else:
            row = f"{row}{glue}{token}" if row else token
    if row:
        lines.append(row)
    return lines


# -- reading ---------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""(?P<space>\s+)
    |(?P<comment>\{(?:[^{}\\]|\\.)*\})
    |(?P<header>^[A-Za-z][A-Za-z ]*:[^\n]*$)
    |(?P<open>\()|(?P<close>\))|(?P<comma>,)|(?P<bang>!)
    |(?P<claim>\[[^\]\n]*\])
    |(?P<number>[0-9]+\.(?:\.\.)?(?![0-9]))
    |(?P<word>[^\s(){}\[\],!]+)
    |(?P<bad>.)""",
    re.M | re.X | re.S,
)
_TITLE_WORDS = ("dots", "and", "boxes", "study")
_UNESCAPE = re.compile(r"\\(.)", re.S)
_CLAIM = re.compile(r"^\[\s*blue\s+([0-9]+)\s*\]$", re.I)
_SIZE = re.compile(
    r"^([0-9]+)\s*x\s*([0-9]+)\s+boxes(?:\s*\(\s*([0-9]+)\s*x\s*([0-9]+)\s+dots\s*\))?$", re.I
)


def _tokens(text: str) -> list[tuple[str, str, int]]:
    found, pos, line = [], 0, 1
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        kind, value = m.lastgroup, m.group()
        if kind == "bad":
            raise StudyFormatError(f"unexpected {value!r}", line=line)
        if kind == "comment" and "{" in _UNESCAPE.sub("", value[1:-1]):
            raise StudyFormatError("a '{' inside a comment must be written '\\{'", line=line)
        if kind != "space":
            found.append((kind, value, line))
        line += value.count("\n")
        pos = m.end()
    return found


def parse_study(text: str) -> Study:
    """Read a study; raise :class:`StudyFormatError` naming the line and the problem.

    A text with no ``Chapter:`` line but a ``Size:`` line (a plain game record)
    is read as a study of one chapter whose main line is the game.
    """
    if not isinstance(text, str) or not text.strip():
        raise StudyFormatError("the study is empty")
    tokens = _tokens(text.replace("\r\n", "\n"))
    headers = [(n, _key(v)) for n, (k, v, _line) in enumerate(tokens) if k == "header"]
    at = None
    if not any(key == "chapter" for _n, key in headers):
        # A plain game record: one chapter, from its size line on.
        at = next((n for n, key in headers if key == "size"), None)
        if at is None and not any(key == "title" for _n, key in headers):
            raise StudyFormatError("the study has no 'Chapter:' and no 'Size:' line")
    if at is not None:
        title = next((_value(v) for k, v, _ in tokens if k == "header" and _key(v) == "title"), "")
        tokens.insert(at, ("header", f"Chapter: {title or 'Chapter 1'}", tokens[at][2]))
    study = Study(title="")
    i = 0
    while i < len(tokens) and not (tokens[i][0] == "header" and _key(tokens[i][1]) == "chapter"):
        kind, value, line = tokens[i]
        if kind == "header" and _key(value) == "title":
            study.title = _value(value)
        elif kind == "comment" and not study.description:
            study.description = _unescape(value)
        elif kind == "header" or (kind == "word" and line == 1 and value.lower() in _TITLE_WORDS):
            pass  # the title line, or a header of a pasted record (Blue:, Red:, …)
        else:
            raise StudyFormatError(f"{value!r} before the first chapter", line=line)
        i += 1
    study.title = study.title or "Study"
    while i < len(tokens):
        i = _chapter(tokens, i, study)
    return study


def _key(header: str) -> str:
    return header.partition(":")[0].strip().lower()


def _value(header: str) -> str:
    return header.partition(":")[2].strip()


def _unescape(comment: str) -> str:
    return _UNESCAPE.sub(r"\1", comment[1:-1])


def _chapter(tokens: list, i: int, study: Study) -> int:
    _kind, value, line = tokens[i]
    chapter = Chapter(title=_value(value) or f"Chapter {len(study.chapters) + 1}")
    size, i = None, i + 1
    while i < len(tokens) and tokens[i][0] == "header" and _key(tokens[i][1]) != "chapter":
        _kind, header, hline = tokens[i]
        key, value = _key(header), _value(header)
        if key == "size":
            size = _size(value, hline)
        elif key == "position":
            try:
                chapter.start_key = Board.from_key(value).key()
            except RulesError as exc:
                raise StudyFormatError(str(exc), line=hline) from None
        elif key == "question":
            chapter.questions.append(_question(value, hline))
        i += 1  # other headers (Blue:, Red:, Result: of a pasted record) are not kept
    if chapter.start_key:
        board = Board.from_key(chapter.start_key)
        if size is not None and size != (board.width, board.height):
            raise StudyFormatError("the position key is not of the chapter's size", line=line)
        size = (board.width, board.height)
    if size is None:
        raise StudyFormatError(
            f"chapter {chapter.title!r} has no 'Size: W x H boxes' line", line=line
        )
    chapter.width, chapter.height = size
    start = chapter.start_board()
    for q in chapter.questions:
        _check_answer(q, start, line)
    j = i
    while j < len(tokens) and not (tokens[j][0] == "header" and _key(tokens[j][1]) == "chapter"):
        if tokens[j][0] == "header":
            raise StudyFormatError(
                f"a header inside the moves: {tokens[j][1]!r}", line=tokens[j][2]
            )
        j += 1
    body = tokens[i:j]
    k = 0
    while k < len(body) and body[k][0] in ("comment", "claim"):
        kind, value, bline = body[k]
        if kind == "comment":
            if chapter.root.comment:
                raise StudyFormatError("two comments on one position", line=bline)
            chapter.root.comment = _unescape(value)
        else:
            if chapter.root.blue is not None:
                raise StudyFormatError("two values on one position", line=bline)
            chapter.root.blue = _claim(value, start, bline)
        k += 1
    k = _parse_line(body, k, Pos(start), chapter.root, top=True)
    study.chapters.append(chapter)
    return j


def _size(value: str, line: int) -> tuple[int, int]:
    m = _SIZE.match(value)
    if not m:
        raise StudyFormatError(
            f"size {value!r} should read like '5 x 5 boxes (6 x 6 dots)'", line=line
        )
    w, h, dw, dh = m.groups()
    w, h = int(w), int(h)
    if dw is not None and (int(dw), int(dh)) != (w + 1, h + 1):
        raise StudyFormatError(f"size {value!r} contradicts itself", line=line)
    try:
        Board(w, h)
    except RulesError as exc:
        raise StudyFormatError(str(exc), line=line) from None
    return w, h


def _question(value: str, line: int) -> Question:
    kind, _sep, answer = value.strip().partition(" ")
    kind, answer = kind.lower(), answer.strip()
    if kind not in QUESTION_KINDS:
        raise StudyFormatError(
            f"a question is 'best', 'blue' or 'control', not {kind!r}", line=line
        )
    return Question(kind, answer.lower() if kind == "control" else answer)


def _check_answer(q: Question, board: Board, line: int) -> None:
    if not q.answer:
        return
    if q.kind == "best":
        try:
            edge = board.parse_edge(q.answer)
        except RulesError as exc:
            raise StudyFormatError(str(exc), line=line) from None
        if board.is_drawn(edge):
            raise StudyFormatError(f"the answer {edge} is drawn already", line=line)
        q.answer = str(edge)
    elif q.kind == "blue":
        if not q.answer.isascii() or not q.answer.isdigit() or int(q.answer) > board.num_boxes:
            raise StudyFormatError(
                f"Blue's boxes are a number from 0 to {board.num_boxes}", line=line
            )
        q.answer = str(int(q.answer))
    elif q.answer not in ("blue", "red"):
        raise StudyFormatError("who gets control is 'blue' or 'red'", line=line)


def _claim(value: str, board: Board, line: int) -> int:
    m = _CLAIM.match(value)
    if not m:
        raise StudyFormatError(f"a value is written like [blue 5], not {value!r}", line=line)
    n = int(m.group(1))
    if n > board.num_boxes:
        raise StudyFormatError(f"Blue cannot take {n} boxes of {board.num_boxes}", line=line)
    return n


def _parse_line(body: list, k: int, pos: Pos, parent: Node, *, top: bool) -> int:
    """Read edges from ``body[k]`` under ``parent`` until a ')' (or the end, at the top);
    return the index after it."""
    node: Node | None = None  # the last edge read; its annotations and variations follow it
    node_parent, before = parent, pos  # where ``node`` hangs, the position before its edge
    comma = False
    while k < len(body):
        kind, value, line = body[k]
        if kind == "close":
            if top:
                raise StudyFormatError("a ')' without its '('", line=line)
            if node is None:
                raise StudyFormatError("an empty variation", line=line)
            return k + 1
        if kind == "number":
            n, cont = int(value.rstrip(".")), value.endswith("...")
            if cont == pos.starts or n != pos.turn_no:
                want = f"{pos.turn_no}." if pos.starts else f"{pos.turn_no}..."
                raise StudyFormatError(f"expected {want} but found {value}", line=line)
            comma = False
        elif kind == "word":
            if comma and pos.starts:
                raise StudyFormatError(
                    f"a comma joins edges of one turn, but {value} starts a new turn", line=line
                )
            try:
                edge = pos.board.parse_edge(value)
                nxt = pos.after(edge)
            except RulesError as exc:
                raise StudyFormatError(str(exc), line=line) from None
            node = Node(edge)
            parent.children.append(node)
            node_parent, before, parent, pos, comma = parent, pos, node, nxt, False
        elif kind == "comma":
            if node is None or comma:
                raise StudyFormatError("a comma must follow an edge", line=line)
            comma = True
        elif node is None:
            raise StudyFormatError(f"{value!r} before the first edge of a line", line=line)
        elif kind == "bang":
            node.best = True
        elif kind == "comment":
            if node.comment:
                raise StudyFormatError("two comments on one edge", line=line)
            node.comment = _unescape(value)
        elif kind == "claim":
            if node.blue is not None:
                raise StudyFormatError("two values on one edge", line=line)
            node.blue = _claim(value, pos.board, line)
        elif kind == "open":
            k = _parse_line(body, k + 1, before, node_parent, top=False)
            continue
        else:
            raise StudyFormatError(f"unexpected {value!r}", line=line)
        k += 1
    if not top:
        raise StudyFormatError("a '(' is never closed", line=body[-1][2] if body else None)
    return k
