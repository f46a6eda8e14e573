"""Boards on the guide's pages: static diagrams and boards you answer by clicking.

Both draw through the game's own renderer (:func:`dotsboxes.games.svg.board_svg`),
so a diagram shows exactly what the rules say.  The clickable board lays one
real ``<button name="edge">`` over every undrawn edge: it works as a plain
form without JavaScript, each edge is reachable by keyboard and named for
screen readers, and htmx only makes the same form post in place.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from dotsboxes.games.svg import CELL, MARGIN, board_svg
from dotsboxes.rules import Board, Edge


def diagram(
    board: Board,
    *,
    highlight: Iterable[Edge | str] = (),
    last_turn: Iterable[Edge | str] = (),
    title: str | None = None,
) -> SafeString:
    """A static board picture, safe to drop into a template."""
    # board_svg escapes the only free text it draws (the title).
    return mark_safe(
        board_svg(
            board,
            highlight=[_edge(e) for e in highlight],
            last_turn=[_edge(e) for e in last_turn],
            title=title,
        )
    )


def try_url(board: Board) -> str:
    """The play page's new-game form, set to start from ``board`` with the learner
    playing the side to move (so the move the text talks about is theirs)."""
    query = urlencode({"position": board.key(), "side": board.turn.name.lower()})
    return f"{reverse('games:new')}?{query}"


def _edge(edge: Edge | str) -> Edge:
    return Edge.parse(edge) if isinstance(edge, str) else edge


def _centre(edge: Edge, board: Board) -> tuple[float, float]:
    (x1, y1), (x2, y2) = edge.dots
    cx = MARGIN + (x1 + x2) / 2 * CELL
    cy = MARGIN + (board.height - (y1 + y2) / 2) * CELL
    return cx, cy


def clickable(
    board: Board,
    *,
    highlight: Iterable[Edge | str] = (),
    title: str | None = None,
    only: Iterable[Edge | str] | None = None,
) -> SafeString:
    """The board with a submit button on every undrawn edge (``name="edge"``).

    Place it inside a ``<form method="post">``; the button's value is the edge
    in dot-pair notation, exactly what a person would type in the text field.
    ``only`` limits the buttons to some of the undrawn edges.
    """
    allowed = None if only is None else {_edge(e) for e in only}
    width = 2 * MARGIN + board.width * CELL
    height = 2 * MARGIN + board.height * CELL
    rows = []
    draw_label = gettext("Draw %(edge)s")
    for edge in board.legal_moves:
        if allowed is not None and edge not in allowed:
            continue
        cx, cy = _centre(edge, board)
        kind = "h" if edge.horizontal else "v"
        style = f"left:{100 * cx / width:.3f}%;top:{100 * cy / height:.3f}%"
        rows.append((kind, str(edge), style, draw_label % {"edge": edge}))
    buttons = format_html_join(
        "",
        '<button type="submit" class="pick pick-{}" name="edge" value="{}" style="{}">'
        '<span class="visually-hidden">{}</span></button>',
        rows,
    )
    picture = diagram(board, highlight=highlight, title=title)
    return format_html(
        '<div class="pick-board" style="--cell-w:{}%;--cell-h:{}%">{}{}</div>',
        f"{100 * CELL / width:.3f}",
        f"{100 * CELL / height:.3f}",
        picture,
        buttons,
    )
