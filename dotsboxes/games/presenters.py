"""Board pictures: a pure function from a rules ``Board`` to SVG markup.

Like ``chess.svg.board``: keyword-only options, no Django, no state.  The play
page, the replay, the guide's diagrams and the studies all draw through here,
so a picture can never disagree with the rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from dotsboxes.rules import Board, Edge, Player

CELL = 60  # SVG units between neighbouring dots
MARGIN = 30
COLOURS = {Player.BLUE: "#0b63c4", Player.RED: "#c2410c"}
FILLS = {Player.BLUE: "#dbeafe", Player.RED: "#ffedd5"}
INITIALS = {Player.BLUE: "B", Player.RED: "R"}


def edge_owners(board: Board) -> dict[Edge, Player]:
    """Who drew each drawn edge, by replaying the board's move stack."""
    replay = Board(board.width, board.height)
    owners: dict[Edge, Player] = {}
    for edge in board.move_stack:
        owners[edge] = replay.turn
        replay.push(edge)
    return owners


def _xy(x: int, y: int, height: int) -> tuple[int, int]:
    # Row 1 is at the bottom, SVG's y grows downwards.
    return MARGIN + x * CELL, MARGIN + (height - y) * CELL


def board_svg(
    board: Board,
    *,
    highlight: Iterable[Edge] = (),
    last_turn: Iterable[Edge] = (),
    labels: bool = True,
    title: str | None = None,
) -> str:
    """Render ``board`` as an ``<svg>`` string (static: no click targets).

    Drawn edges take the colour of who drew them when the board has a move
    stack (a position rebuilt from a key has none: its edges are drawn in ink).
    Claimed boxes are filled with the owner's colour *and* initial.
    ``highlight`` marks edges (hints, study answers) with a dashed violet line;
    ``last_turn`` thickens the edges of the last turn.
    """
    w, h = board.width, board.height
    width, height = 2 * MARGIN + w * CELL, 2 * MARGIN + h * CELL
    owners = edge_owners(board)
    highlight, last_turn = set(highlight), set(last_turn)
    label = title or f"Dots and Boxes board, {board.size_text}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'class="board-svg" role="img" aria-label="{escape(label)}">'
    ]
    for box in range(board.num_boxes):
        owner = board.owner(box)
        if owner is None:
            continue
        x, y = box % w, box // w
        px, py = _xy(x, y + 1, h)
        parts.append(
            f'<rect class="box box-{owner.name.lower()}" x="{px}" y="{py}" '
            f'width="{CELL}" height="{CELL}" fill="{FILLS[owner]}"/>'
            f'<text x="{px + CELL / 2}" y="{py + CELL / 2}" text-anchor="middle" '
            f'dominant-baseline="central" font-size="26" font-weight="700" '
            f'fill="{COLOURS[owner]}">{INITIALS[owner]}</text>'
        )
    for edge in board.edges:
        (x1, y1), (x2, y2) = edge.dots
        (px1, py1), (px2, py2) = _xy(x1, y1, h), _xy(x2, y2, h)
        if board.is_drawn(edge):
            drawer = owners.get(edge)
            colour = COLOURS[drawer] if drawer is not None else "#1f2937"
            stroke = 9 if edge in last_turn else 6
            parts.append(
                f'<line class="edge drawn" data-edge="{edge}" x1="{px1}" y1="{py1}" '
                f'x2="{px2}" y2="{py2}" stroke="{colour}" stroke-width="{stroke}" '
                f'stroke-linecap="round"/>'
            )
        if edge in highlight:
            parts.append(
                f'<line class="edge highlight" data-edge="{edge}" x1="{px1}" y1="{py1}" '
                f'x2="{px2}" y2="{py2}" stroke="#7c3aed" stroke-width="6" '
                f'stroke-dasharray="8 6" stroke-linecap="round"/>'
            )
    for y in range(h + 1):
        for x in range(w + 1):
            px, py = _xy(x, y, h)
            parts.append(f'<circle class="dot" cx="{px}" cy="{py}" r="6" fill="#1f2937"/>')
    if labels:
        for x in range(w + 1):
            px, _ = _xy(x, 0, h)
            parts.append(
                f'<text class="coord" x="{px}" y="{height - 6}" text-anchor="middle" '
                f'font-size="13" fill="#4b5563">{"abcdefghij"[x]}</text>'
            )
        for y in range(h + 1):
            _, py = _xy(0, y, h)
            parts.append(
                f'<text class="coord" x="10" y="{py}" text-anchor="middle" '
                f'dominant-baseline="central" font-size="13" fill="#4b5563">{y + 1}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)
