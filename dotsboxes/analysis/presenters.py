"""What a page shows of a game's analysis: the value graph, the marks, the best edge.

:func:`build` turns a stored :class:`GameAnalysis` into a :class:`Panel` for
``templates/analysis/_panel.html``; the replay, the analysis page of a game
and the staff's report page all render it.  :func:`graph_svg` draws the graph
(server-side SVG, one link per point).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from dotsboxes.engine.annotate import THRESHOLDS
from dotsboxes.games.models import Game
from dotsboxes.games.svg import COLOURS, INK
from dotsboxes.rules import Player

from .models import GameAnalysis

#: Short signs of the marks, as chess annotators write them.
GLYPHS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def mark_names() -> dict[str, str]:
    return {"inaccuracy": _("inaccuracy"), "mistake": _("mistake"), "blunder": _("blunder")}


@dataclass
class Panel:
    """Everything ``analysis/_panel.html`` needs.  ``state``: none, pending, done, failed."""

    game: Game
    ply: int
    state: str
    page_url: str  # the page the graph's points link to (with ?ply=N)
    target: str  # the id of the element that page swaps
    can_request: bool = False
    refusal: str = ""
    done: int = 0
    total: int = 0
    graph: str = ""
    entry: dict | None = None  # the analysis of the edge drawn next, at ``ply``
    players: list[dict] = field(default_factory=list)
    marked: list[dict] = field(default_factory=list)
    exact_from: int = 0  # 1-based edge number
    position_value: str = ""

    @property
    def best(self) -> list[str]:
        return self.entry["best"] if self.entry else []

    @property
    def marks_by_ply(self) -> dict[int, dict]:
        return {m["ply"]: m for m in self.marked}

    def mark_log(self, log: list[dict]) -> None:
        """Give each row of a turn log (``games.history.replay_log``) its edges' marks."""
        marks = self.marks_by_ply
        for row in log:
            row["marks"] = [marks[s.ply] for s in row["turn"].steps if s.ply in marks]


def build(
    game: Game,
    analysis: GameAnalysis | None,
    *,
    ply: int,
    page_url: str,
    target: str,
    refusal: str = "",
) -> Panel:
    """The panel of ``game`` at ``ply`` (edges drawn), linking its graph to ``page_url``."""
    panel = Panel(game, ply, "none", page_url, target, can_request=not refusal, refusal=refusal)
    if analysis is None:
        return panel
    panel.done, panel.total = analysis.done, analysis.total
    if analysis.status == GameAnalysis.Status.FAILED:
        panel.state = "failed"
        return panel
    if analysis.status != GameAnalysis.Status.DONE or not analysis.result:
        panel.state = "pending"
        return panel
    result = analysis.result
    entries = result["edges"]
    panel.state = "done"
    panel.graph = graph_svg(result, ply=ply, page_url=page_url, target=target)
    panel.entry = entries[ply] if ply < len(entries) else None
    panel.exact_from = result["exact_from"] + 1  # the first edge whose position is exact
    names = mark_names()
    for e in entries:
        if e["mark"] or e["control"] or e["double_deal"]:
            panel.marked.append(
                {
                    "ply": e["ply"],
                    "edge": e["edge"],
                    "side": e["side"],
                    "mark": e["mark"],
                    "glyph": GLYPHS.get(e["mark"], ""),
                    "mark_name": names.get(e["mark"], ""),
                    "lost": e["lost"],
                    "exact": e["exact"] and e["played_exact"],
                    "control": e["control"],
                    "double_deal": e["double_deal"],
                    "best": e["best"],
                }
            )
    for side, player in (("blue", Player.BLUE), ("red", Player.RED)):
        stats = result["players"][side]
        panel.players.append(
            {
                "side": side,
                "name": game.label_of(player),
                **stats,
                "marks": [(names[m], GLYPHS[m], stats["marks"][m]) for m, _n in THRESHOLDS],
            }
        )
    margin = result["margins"][min(ply, len(result["margins"]) - 1)]
    panel.position_value = margin_text(margin["margin"], margin["exact"])
    return panel


def margin_text(margin: int, exact: bool) -> str:
    """Blue's predicted final margin in words."""
    if margin > 0:
        text = ngettext(
            "Blue wins by %(n)d box with best play",
            "Blue wins by %(n)d boxes with best play",
            margin,
        ) % {"n": margin}
    elif margin < 0:
        text = ngettext(
            "Red wins by %(n)d box with best play",
            "Red wins by %(n)d boxes with best play",
            -margin,
        ) % {"n": -margin}
    else:
        text = _("A tie with best play")
    return text + (_(" (exact)") if exact else _(" (estimate)"))


# -- the graph ---------------------------------------------------------------------

WIDTH, HEIGHT, PAD_X, PAD_Y = 420, 190, 34, 14


def graph_svg(result: dict, *, ply: int, page_url: str, target: str) -> str:
    """Blue's predicted final margin after each edge: exact points solid, estimates hollow.

    Every point is a link to ``page_url?ply=N`` (htmx swaps ``#target`` when it
    runs and ``target`` is set; otherwise, and without JavaScript, the link is
    followed).  The current ply is ringed and a vertical line marks it.
    """
    points = result["margins"]
    n = max(1, len(points) - 1)
    boxes = result["width"] * result["height"]
    top = max(2, max(abs(p["margin"]) for p in points))
    top = min(boxes, top + (top % 2))
    inner_w, inner_h = WIDTH - 2 * PAD_X, HEIGHT - 2 * PAD_Y

    def xy(p: dict) -> tuple[float, float]:
        return (
            PAD_X + inner_w * p["ply"] / n,
            PAD_Y + inner_h * (top - p["margin"]) / (2 * top),
        )

    label = _("Value graph: Blue's predicted final margin in boxes after each edge")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="value-graph" viewBox="0 0 {WIDTH} '
        f'{HEIGHT}" role="group" aria-label="{escape(label)}">',
        f'<rect x="{PAD_X}" y="{PAD_Y}" width="{inner_w}" height="{inner_h / 2}" '
        f'fill="{COLOURS[Player.BLUE]}" fill-opacity="0.06"/>',
        f'<rect x="{PAD_X}" y="{PAD_Y + inner_h / 2}" width="{inner_w}" height="{inner_h / 2}" '
        f'fill="{COLOURS[Player.RED]}" fill-opacity="0.06"/>',
    ]
    zero_y = PAD_Y + inner_h / 2
    parts.append(
        f'<line x1="{PAD_X}" y1="{zero_y}" x2="{WIDTH - PAD_X}" y2="{zero_y}" stroke="#9ca3af"/>'
    )
    for value, y in ((top, PAD_Y), (0, zero_y), (-top, HEIGHT - PAD_Y)):
        parts.append(
            f'<text x="{PAD_X - 6}" y="{y}" text-anchor="end" dominant-baseline="central" '
            f'font-size="15" fill="#4b5563" aria-hidden="true">{value:+d}</text>'
            if value
            else f'<text x="{PAD_X - 6}" y="{y}" text-anchor="end" dominant-baseline="central" '
            f'font-size="15" fill="#4b5563" aria-hidden="true">0</text>'
        )
    current = min(max(ply, 0), n)
    cx = PAD_X + inner_w * current / n
    parts.append(
        f'<line class="graph-now" x1="{cx}" y1="{PAD_Y}" x2="{cx}" y2="{HEIGHT - PAD_Y}" '
        f'stroke="#7c3aed" stroke-width="2" stroke-dasharray="4 3"/>'
    )
    path = " ".join(f"{x:.1f},{y:.1f}" for x, y in map(xy, points))
    parts.append(
        f'<polyline points="{path}" fill="none" stroke="{INK}" stroke-width="1.5" '
        f'stroke-opacity="0.6"/>'
    )
    for p in points:
        x, y = xy(p)
        kind = _("exact") if p["exact"] else _("estimate")
        text = _("After %(ply)d edges: Blue %(margin)+d, %(kind)s") % {
            "ply": p["ply"],
            "margin": p["margin"],
            "kind": kind,
        }
        url = f"{page_url}?ply={p['ply']}"
        fill = INK if p["exact"] else "#ffffff"
        now = p["ply"] == current
        cls = "graph-point exact" if p["exact"] else "graph-point estimate"
        step = ' aria-current="step"' if now else ""
        if now:
            cls += " now"
        htmx = (
            f' hx-get="{escape(url)}" hx-target="#{target}" hx-swap="outerHTML" hx-push-url="true"'
            if target
            else ""
        )
        parts.append(
            f'<a class="{cls}" href="{escape(url)}"{htmx} '
            f'data-ply="{p["ply"]}" aria-label="{escape(text)}"{step}>'
            f"<title>{escape(text)}</title>"
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="9" fill="transparent"/>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{6 if now else 3.5}" fill="{fill}" '
            f'stroke="{"#7c3aed" if now else INK}" stroke-width="{2.5 if now else 1.5}"/></a>'
        )
    parts.append("</svg>")
    return "".join(parts)


def game_page_url(game: Game) -> str:
    return reverse("analysis:game", args=[game.public_id])
