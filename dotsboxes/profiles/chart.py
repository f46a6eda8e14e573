"""A rating history drawn as SVG: one line per time control (pure: no Django).

The page passes in its words (already translated), so this module only lays
out numbers.  The x axis counts rated games in the order they were played, so
lines of different time controls interleave as the games did; the y axis spans
the ratings shown, rounded out to hundreds.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 28  # room for the axis labels


@dataclass(frozen=True)
class Point:
    index: int  # the game's place among the player's rated games (0: before the first)
    rating: float  # the rating after that game
    label: str  # what a pointer (and a screen reader's list) says of this game


@dataclass(frozen=True)
class Line:
    key: str  # css class suffix: "untimed", "live", "correspondence"
    name: str  # the time control, as the legend shows it
    points: list[Point]


def _ticks(low: float, high: float) -> list[int]:
    step = 100 if high - low <= 600 else 200
    return list(range(int(low), int(high) + 1, step))


def rating_svg(lines: list[Line], *, title: str, description: str, first: str, last: str) -> str:
    """The chart, ``first`` and ``last`` naming the ends of the x axis (dates)."""
    points = [p for line in lines for p in line.points]
    if not points:
        return ""
    games = max(p.index for p in points) + 1
    low = min(p.rating for p in points) // 100 * 100
    high = -(-max(p.rating for p in points) // 100) * 100
    if high - low < 200:  # a flat history still gets a readable scale
        low, high = low - 100, high + 100
    span_x, span_y = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return LEFT + (span_x * index / (games - 1) if games > 1 else span_x / 2)

    def y(rating: float) -> float:
        return TOP + span_y * (high - rating) / (high - low)

    parts = [
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="rating-chart-title rating-chart-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="rating-chart-title">{escape(title)}</title>',
        f'<desc id="rating-chart-desc">{escape(description)}</desc>',
    ]
    for tick in _ticks(low, high):
        ty = f"{y(tick):.1f}"
        parts.append(
            f'<line class="grid" x1="{LEFT}" y1="{ty}" x2="{WIDTH - RIGHT}" y2="{ty}"/>'
            f'<text class="tick" x="{LEFT - 6}" y="{ty}" text-anchor="end" '
            f'dominant-baseline="middle">{tick}</text>'
        )
    base = HEIGHT - BOTTOM + 18
    parts.append(f'<text class="tick" x="{LEFT}" y="{base}">{escape(first)}</text>')
    parts.append(
        f'<text class="tick" x="{WIDTH - RIGHT}" y="{base}" text-anchor="end">{escape(last)}</text>'
    )
    for line in lines:
        if not line.points:
            continue
        coords = " ".join(f"{x(p.index):.1f},{y(p.rating):.1f}" for p in line.points)
        parts.append(f'<g class="series series-{line.key}" data-series="{line.key}">')
        parts.append(f'<polyline points="{coords}"><title>{escape(line.name)}</title></polyline>')
        for p in line.points:
            parts.append(
                f'<circle cx="{x(p.index):.1f}" cy="{y(p.rating):.1f}" r="3">'
                f"<title>{escape(p.label)}</title></circle>"
            )
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
