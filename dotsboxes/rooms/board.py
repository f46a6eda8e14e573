"""A room's board, drawn in layers that a move's push can change one piece at a time.

The play page redraws its whole board after every edge (``games.svg.board_svg``);
a room pushes each move to every watcher, so its board is built from parts with ids
that a push appends to or replaces by htmx out-of-band swaps:

* ``#rb-boxes``: the claimed boxes (a move appends the ones it claimed);
* ``#rb-last``: the last turn's halo, under the edges (a move replaces it);
* ``#rb-edges``: the drawn edges (a move appends its own);
* ``rt-<edge>``: a click target for every undrawn edge (a move deletes its own).

The last turn is emphasised by a halo and a wider underlay of its edges in ``#rb-last``,
not by changing the edges themselves, so earlier edges never need sending again.  The
full page and a push draw every piece with the same functions here, which is what keeps
a page updated push by push identical to a fresh load (``tests/browser/test_rooms.py``).
Colours, stripes and sizes are those of :func:`~dotsboxes.games.svg.board_svg`,
set in ``static/css/rooms.css``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape

from django.utils.translation import gettext as _

from dotsboxes.games.svg import CELL, INITIALS, MARGIN, grid_svg
from dotsboxes.games.svg import STRIPED as _STRIPED
from dotsboxes.games.wording import size_text
from dotsboxes.rules import Board, Edge, Player


def _xy(x: int, y: int, height: int) -> tuple[int, int]:
    return MARGIN + x * CELL, MARGIN + (height - y) * CELL


def _ends(edge: Edge, h: int) -> str:
    (x1, y1), (x2, y2) = edge.dots
    (px1, py1), (px2, py2) = _xy(x1, y1, h), _xy(x2, y2, h)
    return f'x1="{px1}" y1="{py1}" x2="{px2}" y2="{py2}"'


def edge_svg(edge: Edge, player: Player, h: int) -> str:
    """One drawn edge in its drawer's colour (Red's with a stripe: colour is never alone).

    Colours and widths come from rooms.css (those of ``board_svg``): every move sends
    its edges and boxes, so they carry classes, not presentation attributes."""
    ends = _ends(edge, h)
    line = f'<line class="edge drawn by-{player.name.lower()}" data-edge="{edge}" {ends}/>'
    if player in _STRIPED:
        line += f'<line class="edge-stripe" {ends}/>'
    return line


def box_svg(box: int, owner: Player, w: int, h: int) -> str:
    """A claimed box: its owner's fill and initial."""
    px, py = _xy(box % w, box // w + 1, h)
    return (
        f'<g class="box box-{owner.name.lower()}" data-box="{box}">'
        f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}"/>'
        f'<text x="{px + CELL // 2}" y="{py + CELL // 2}">{INITIALS[owner]}</text></g>'
    )


def last_svg(edges: Iterable[Edge], player: Player | None, h: int) -> str:
    """The last turn's emphasis: a halo and a wider line of the drawer's colour under each edge."""
    if player is None:
        return ""
    # Styled by rooms.css (.rb-halo, .rb-last-blue/red): sent with every move, so short.
    side = player.name.lower()
    return "".join(
        f'<line class="rb-halo" {_ends(e, h)}/><line class="rb-last-{side}" {_ends(e, h)}/>'
        for e in edges
    )


def target_svg(edge: Edge, h: int) -> str:
    """A finger-sized click target over an undrawn edge, clear of the dots."""
    (x1, y1), (x2, y2) = edge.dots
    (px1, py1), (px2, py2) = _xy(x1, y1, h), _xy(x2, y2, h)
    pad, half = 9, 11
    if edge.horizontal:
        x, y, width, height = px1 + pad, py1 - half, px2 - px1 - 2 * pad, 2 * half
    else:
        x, y, width, height = px2 - half, py2 + pad, 2 * half, py1 - py2 - 2 * pad
    label = escape(_("Draw %(edge)s") % {"edge": edge})
    return (
        f'<rect class="edge-target" id="rt-{edge}" data-edge="{edge}" x="{x}" y="{y}" '
        f'width="{width}" height="{height}" rx="6" tabindex="0" role="button" '
        f'aria-label="{label}"/>'
    )


def board_svg(
    board: Board,
    *,
    owners: Mapping[Edge, Player],
    last: list[Edge],
    last_player: Player | None,
    playable: bool,
) -> str:
    """The whole board: boxes, last-turn halo, edges, dots and coordinates, then the
    click targets on the undrawn edges when the viewer may play."""
    w, h = board.width, board.height
    width, height = 2 * MARGIN + w * CELL, 2 * MARGIN + h * CELL
    label = escape(_("Dots and Boxes board, %(size)s") % {"size": size_text(w, h)})
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'class="board-svg" role="img" aria-label="{label}"><g id="rb-boxes">'
    ]
    for box in range(board.num_boxes):
        owner = board.owner(box)
        if owner is not None:
            parts.append(box_svg(box, owner, w, h))
    parts.append(f'</g><g id="rb-last">{last_svg(last, last_player, h)}</g><g id="rb-edges">')
    # In the order they were drawn, as a push appends them.
    parts.extend(edge_svg(edge, owners[edge], h) for edge in board.move_stack)
    parts.append("</g>")
    parts.extend(grid_svg(w, h))
    parts.append("</svg>")
    if playable:
        targets_label = escape(_("Edges you can draw"))
        parts.append(
            f'<svg class="board-targets" viewBox="0 0 {width} {height}" '
            f'aria-label="{targets_label}">'
        )
        parts.extend(target_svg(edge, h) for edge in board.legal_moves)
        parts.append("</svg>")
    return "".join(parts)


def move_oob(
    board: Board,
    *,
    drawn: Iterable[tuple[Edge, Player, tuple[int, ...]]],
    last: list[Edge],
    last_player: Player | None,
    continued: bool,
) -> str:
    """Out-of-band swaps that bring a board one move on: its edges and boxes appended,
    their targets deleted, the last turn's halo replaced (or, when the move ``continued``
    the last turn, only its new edges appended to it).  The ``<svg>`` wrappers make the
    browser parse the pieces as SVG; htmx swaps their children in."""
    w, h = board.width, board.height
    edges, boxes, gone = [], [], []
    for edge, player, claimed in drawn:
        edges.append(edge_svg(edge, player, h))
        boxes.extend(box_svg(box, player, w, h) for box in claimed)
        gone.append(f'<i id="rt-{edge}" hx-swap-oob="delete"></i>')
    out = [f'<svg hx-swap-oob="beforeend:#rb-edges">{"".join(edges)}</svg>']
    if boxes:
        out.append(f'<svg hx-swap-oob="beforeend:#rb-boxes">{"".join(boxes)}</svg>')
    if continued:
        halo = last_svg(last[-len(edges) :], last_player, h)
        out.append(f'<svg hx-swap-oob="beforeend:#rb-last">{halo}</svg>')
    else:
        out.append(f'<svg hx-swap-oob="innerHTML:#rb-last">{last_svg(last, last_player, h)}</svg>')
    out.extend(gone)
    return "".join(out)
