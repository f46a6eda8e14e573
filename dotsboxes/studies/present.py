"""A chapter for the page: its moves as clickable items, the steps, the claims' verdicts."""

from __future__ import annotations

from dataclasses import dataclass, field

from dotsboxes.rules import Board

from . import checks, notation


@dataclass
class Item:
    """One piece of the written line: a move (with its path), a comment, a bracket."""

    kind: str  # "move", "comment", "open", "close"
    text: str = ""
    path: str = ""
    number: str = ""  # "3." or "3..." before the move
    current: bool = False
    best: bool = False
    blue: int | None = None
    verdicts: list = field(default_factory=list)
    main: bool = True  # on the main line


def items(
    chapter: notation.Chapter, current: str, verdicts: dict[str, list] | None = None
) -> list[Item]:
    """The chapter's moves in reading order, as the text format writes them."""
    verdicts = verdicts or {}
    found: list[Item] = []
    root = chapter.root
    if root.children:
        _line(
            found,
            notation.Pos(chapter.start_board()),
            root,
            root.children[0],
            (),
            current,
            verdicts,
            main=True,
        )
    return found


def _line(found, pos, parent, first, parent_path, current, verdicts, *, main):
    index = next(i for i, child in enumerate(parent.children) if child is first)
    node, need_number, path = first, True, (*parent_path, index)
    while node is not None:
        number = ""
        if pos.starts:
            number = f"{pos.turn_no}."
        elif need_number:
            number = f"{pos.turn_no}..."
        text = checks.path_text(path)
        found.append(
            Item(
                "move",
                str(node.edge),
                text,
                number,
                text == current,
                node.best,
                node.blue,
                verdicts.get(text, []),
                main,
            )
        )
        if node.comment:
            found.append(Item("comment", node.comment, text, main=main))
        variations = parent.children[1:] if node is parent.children[0] else []
        for other in variations:
            found.append(Item("open", main=False))
            _line(found, pos, parent, other, path[:-1], current, verdicts, main=False)
            found.append(Item("close", main=False))
        need_number = bool(node.comment or variations or node.best or node.blue is not None)
        nxt = pos.after(node.edge)
        parent, pos = node, nxt
        node = node.children[0] if node.children else None
        path = (*path, 0)


@dataclass
class Steps:
    """Where the reader is and the six steps of the replay's controls (paths)."""

    first: str
    prev_turn: str
    prev: str
    next: str
    next_turn: str
    last: str
    ply: int  # edges from the start
    on_main: bool

    def as_nav(self) -> dict:
        return {
            "first": self.first,
            "prev_turn": self.prev_turn,
            "prev": self.prev,
            "next": self.next,
            "next_turn": self.next_turn,
            "last": self.last,
        }


def steps(chapter: notation.Chapter, indices: list[int]) -> Steps:
    """The steps from the node at ``indices``: back along its line, on along its main line."""
    pos = notation.Pos(chapter.start_board())
    node, ends_turn = chapter.root, [True]  # ends_turn[k]: after k edges, a new turn starts
    for i in indices:
        node = node.children[i]
        pos = pos.after(node.edge)
        ends_turn.append(pos.starts)
    here = list(indices)
    prev_turn = next((k for k in range(len(here) - 1, -1, -1) if ends_turn[k]), 0)
    forward, probe, p = [], node, pos
    while probe.children:
        probe = probe.children[0]
        forward.append(0)
        p = p.after(probe.edge)
        if p.starts:
            break
    last, probe = list(here), node
    while probe.children:
        probe = probe.children[0]
        last.append(0)
    text = checks.path_text
    return Steps(
        first="",
        prev_turn=text(here[:prev_turn]),
        prev=text(here[:-1]),
        next=text([*here, 0]) if node.children else text(here),
        next_turn=text(here + forward),
        last=text(last),
        ply=len(here),
        on_main=all(i == 0 for i in here),
    )


def board_at(chapter: notation.Chapter, indices: list[int]) -> Board:
    """The board after the node at ``indices``, with its history (colours of who drew)."""
    board = chapter.start_board()
    node = chapter.root
    for i in indices:
        node = node.children[i]
        board.play(node.edge)
    return board
