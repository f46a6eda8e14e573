"""Board pictures: pure functions of a rules ``Board``.

Like ``chess.svg.board``: keyword-only options, no Django models, no state.  The
play page, the replay, the guide's diagrams, the studies and the analysis board
all draw through here, so a picture can never disagree with the rules.

:func:`board_svg` draws a board.  By default it is a static picture
(``role="img"``) for diagrams.  With ``interactive=True`` every undrawn edge
becomes a focusable ``<g class="slot" role="button" data-edge="c3-d3">`` whose
hit area is the diamond between its two dots and the neighbouring box centres
(the whole board is a touch target); ``static/js/board.js`` turns a click or
Enter on a slot into a post of the enclosing move form.  :func:`grid_svg` is the
dots and coordinates every picture shares (the room's layered board too).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from django.utils.translation import gettext

from dotsboxes.rules import Board, Edge, Player

from .history import Step, history
from .wording import size_text

CELL = 60  # SVG units between neighbouring dots
MARGIN = 30
# Blue and orange stay apart under every common colour-vision deficiency, and each
# keeps 3:1 against the board, the box fills and the halo (tests/games/test_palette.py).
COLOURS = {Player.BLUE: "#0b63c4", Player.RED: "#c2410c"}
FILLS = {Player.BLUE: "#dbeafe", Player.RED: "#ffedd5"}
INITIALS = {Player.BLUE: "B", Player.RED: "R"}
INK = "#1f2937"
BOARD = "#ffffff"  # the card the board is drawn on (site.css --card)
HALO = "#fde68a"  # under the last turn's edges
HIGHLIGHT = "#7c3aed"  # hinted and studied edges (site.css --focus)
# Colour alone must not tell the players' edges apart (nor does it in greyscale:
# the two colours are almost equally dark), so Red's edges carry a stripe of the
# board's colour down the middle: Blue's lines are solid, Red's hollow.
STRIPED = {Player.RED}


def edge_sample(player: Player) -> str:
    """A short line drawn as ``player``'s edges are, for the legend beside a board."""
    line = 'x1="5" y1="6" x2="35" y2="6"'
    parts = [
        '<svg class="edge-sample" viewBox="0 0 40 12" width="40" height="12" aria-hidden="true">',
        f'<line {line} stroke="{COLOURS[player]}" stroke-width="{8 if player in STRIPED else 6}" '
        'stroke-linecap="round"/>',
    ]
    if player in STRIPED:
        parts.append(f'<line class="edge-stripe" {line} stroke="{BOARD}" stroke-width="2"/>')
    parts.append("</svg>")
    return "".join(parts)


@dataclass(frozen=True)
class Tint:
    """How an undrawn edge is coloured: a colour, a short label, its spoken text."""

    colour: str
    label: str
    text: str
    dashed: bool = False


def _tint(edge: Edge, h: int, tint: Tint) -> str:
    (x1, y1), (x2, y2) = edge.dots
    (px1, py1), (px2, py2) = _xy(x1, y1, h), _xy(x2, y2, h)
    mx, my = (px1 + px2) / 2, (py1 + py2) / 2
    dash = ' stroke-dasharray="7 5"' if tint.dashed else ""
    # The label sits beside the line: above a horizontal edge, right of a vertical one.
    tx, ty = (mx, my - 10) if edge.horizontal else (mx + 12, my)
    return (
        f'<g class="tint" data-edge="{edge}" aria-hidden="true">'
        f'<line {_line(edge, h)} stroke="{tint.colour}" stroke-width="5" '
        f'stroke-linecap="round"{dash}/>'
        f'<text x="{tx:g}" y="{ty:g}" text-anchor="middle" dominant-baseline="central" '
        f'font-size="13" font-weight="700" fill="{tint.colour}" stroke="{BOARD}" '
        f'stroke-width="3" paint-order="stroke">{escape(tint.label)}</text></g>'
    )


def _xy(x: int, y: int, height: int) -> tuple[int, int]:
    # Row 1 is at the bottom, SVG's y grows downwards.
    return MARGIN + x * CELL, MARGIN + (height - y) * CELL


def _line(edge: Edge, h: int) -> str:
    (x1, y1), (x2, y2) = edge.dots
    (px1, py1), (px2, py2) = _xy(x1, y1, h), _xy(x2, y2, h)
    return f'x1="{px1}" y1="{py1}" x2="{px2}" y2="{py2}"'


def _diamond(edge: Edge, h: int) -> str:
    """The hit area of an edge: its two dots and the centres of the boxes beside it."""
    (x1, y1), (x2, y2) = edge.dots
    (px1, py1), (px2, py2) = _xy(x1, y1, h), _xy(x2, y2, h)
    mx, my = (px1 + px2) / 2, (py1 + py2) / 2
    half = CELL / 2
    if edge.horizontal:
        pts = ((px1, py1), (mx, my - half), (px2, py2), (mx, my + half))
    else:
        pts = ((px1, py1), (mx - half, my), (px2, py2), (mx + half, my))
    return " ".join(f"{x:g},{y:g}" for x, y in pts)


def board_svg(
    board: Board,
    *,
    highlight: Iterable[Edge] = (),
    last_turn: Iterable[Edge] = (),
    labels: bool = True,
    title: str | None = None,
    interactive: bool = False,
    guides: bool = False,
    fresh: Sequence[Edge] = (),
    steps: Sequence[Step] | None = None,
    tints: Mapping[Edge, Tint] | None = None,
) -> str:
    """Render ``board`` as an ``<svg>`` string (``steps``: its :func:`history`, if known).

    Drawn edges take the colour of who drew them, Red's with a pale stripe down
    the middle so that colour is never the only sign (edges of a position
    rebuilt from a key, with no move stack, are drawn in ink).  Claimed boxes are
    filled with the owner's colour *and* initial.  ``highlight`` marks edges
    (hints, study answers) with a dashed violet line; ``last_turn`` edges are
    thicker, on a pale halo.  ``interactive`` adds a focusable slot for every
    undrawn edge; ``guides`` draws undrawn edges as faint dotted lines (always
    on when interactive); ``fresh`` edges (and the boxes they claim) fade in one after
    the other, in the order given.  ``tints`` colour undrawn edges (the analysis
    board's values): a line in the tint's colour, dashed when ``dashed``, with its
    ``text`` written beside it and added to the edge's accessible name.
    """
    w, h = board.width, board.height
    width, height = 2 * MARGIN + w * CELL, 2 * MARGIN + h * CELL
    steps = history(board) if steps is None else steps
    owners = {s.edge: s.player for s in steps}
    order = {edge: i for i, edge in enumerate(fresh)}
    box_delay = {box: order[s.edge] for s in steps if s.edge in order for box in s.claimed}
    highlight, last_turn = set(highlight), set(last_turn)
    label = title or gettext("Dots and Boxes board, %(size)s") % {
        "size": size_text(board.width, board.height)
    }
    draw_label = gettext("Draw %(edge)s")
    # Translators: a free edge's button on the analysis board, then what drawing it is worth.
    draw_tinted_label = gettext("Draw %(edge)s, %(value)s")
    turn_class = f" turn-{board.turn.name.lower()}" if interactive else ""
    role = 'role="group"' if interactive else 'role="img"'
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'class="board-svg{turn_class}" {role} aria-label="{escape(label)}">'
    ]
    for box in range(board.num_boxes):
        owner = board.owner(box)
        if owner is None:
            continue
        x, y = box % w, box // w
        px, py = _xy(x, y + 1, h)
        anim = f' style="--i:{box_delay[box]}"' if box in box_delay else ""
        fresh_class = " fresh" if box in box_delay else ""
        parts.append(
            f'<g class="box box-{owner.name.lower()}{fresh_class}"{anim}>'
            f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="{FILLS[owner]}"/>'
            f'<text x="{px + CELL / 2}" y="{py + CELL / 2}" text-anchor="middle" '
            f'dominant-baseline="central" font-size="26" font-weight="700" '
            f'fill="{COLOURS[owner]}">{INITIALS[owner]}</text></g>'
        )
    for edge in board.edges:
        if not board.is_drawn(edge) or edge not in last_turn:
            continue
        parts.append(f'<line class="halo" {_line(edge, h)} stroke="{HALO}" stroke-width="18"/>')
    tab_stop_given = False
    for edge in board.edges:
        drawn = board.is_drawn(edge)
        if drawn:
            drawer = owners.get(edge)
            colour = COLOURS[drawer] if drawer is not None else INK
            who = f" by-{drawer.name.lower()}" if drawer is not None else ""
            stroke = 9 if edge in last_turn else 6
            if drawer in STRIPED:
                stroke += 2  # as much colour either side of the stripe as a plain line has
            extra = " last" if edge in last_turn else ""
            anim = ""
            if edge in order:
                extra += " fresh"
                anim = f' style="--i:{order[edge]}" pathLength="1"'
            parts.append(
                f'<line class="edge drawn{who}{extra}" data-edge="{edge}" {_line(edge, h)} '
                f'stroke="{colour}" stroke-width="{stroke}" stroke-linecap="round"{anim}/>'
            )
            if drawer in STRIPED:
                fresh_class = " fresh" if edge in order else ""
                parts.append(
                    f'<line class="edge-stripe{fresh_class}" {_line(edge, h)} stroke="{BOARD}" '
                    f'stroke-width="{stroke // 4}"{anim}/>'
                )
        elif guides and not interactive:
            parts.append(f'<line class="slot-line" {_line(edge, h)}/>')
        elif interactive:
            # One tab stop for the board (the first free edge); arrow keys move from it.
            tabindex = "-1" if tab_stop_given else "0"
            tab_stop_given = True
            tint = tints.get(edge) if tints else None
            if tint is not None:
                parts.append(_tint(edge, h, tint))
                name = draw_tinted_label % {"edge": edge, "value": tint.text}
            else:
                name = draw_label % {"edge": edge}
            parts.append(
                f'<g class="slot" data-edge="{edge}" tabindex="{tabindex}" role="button" '
                f'aria-label="{escape(name)}"><polygon class="slot-hit" '
                f'points="{_diamond(edge, h)}" fill="transparent"/>'
                f'<line class="slot-line" {_line(edge, h)}/></g>'
            )
        if edge in highlight:
            parts.append(
                f'<line class="edge highlight" data-edge="{edge}" {_line(edge, h)} '
                f'stroke="{HIGHLIGHT}" stroke-width="6" '
                f'stroke-dasharray="8 6" stroke-linecap="round"/>'
            )
    parts.extend(grid_svg(w, h, labels=labels))
    parts.append("</svg>")
    return "".join(parts)


def grid_svg(w: int, h: int, *, labels: bool = True) -> list[str]:
    """The dots of a ``w`` x ``h`` boxes board and, with ``labels``, the column letters
    and row numbers: the part every board picture draws the same way (the play page's,
    the room's layered board)."""
    parts = []
    for y in range(h + 1):
        for x in range(w + 1):
            px, py = _xy(x, y, h)
            parts.append(f'<circle class="dot" cx="{px}" cy="{py}" r="6" fill="{INK}"/>')
    if labels:
        height = 2 * MARGIN + h * CELL
        for x in range(w + 1):
            px, _ = _xy(x, 0, h)
            parts.append(
                f'<text class="coord" x="{px}" y="{height - 6}" text-anchor="middle" '
                f'font-size="13" fill="#4b5563" aria-hidden="true">{"abcdefghij"[x]}</text>'
            )
        for y in range(h + 1):
            _, py = _xy(0, y, h)
            parts.append(
                f'<text class="coord" x="10" y="{py}" text-anchor="middle" '
                f'dominant-baseline="central" font-size="13" fill="#4b5563" '
                f'aria-hidden="true">{y + 1}</text>'
            )
    return parts
