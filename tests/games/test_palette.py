"""The board's colours as shipped: WCAG contrast and colour-blind safety, computed.

Colours come from the board pictures (games.svg) (the SVG's attributes) and from site.css's
custom properties, so a change to either is checked here.  The states only a
browser resolves (hover, focus, the guides) are measured in
tests/browser/test_play.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dotsboxes.games import svg as pictures
from dotsboxes.games.svg import BOARD, COLOURS, FILLS, HALO, HIGHLIGHT, INK
from dotsboxes.rules import Board, Player

SITE_CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "site.css"


def _channels(colour: str) -> tuple[float, float, float]:
    colour = colour.lstrip("#")
    return tuple(int(colour[i : i + 2], 16) / 255 for i in (0, 2, 4))


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of a #rrggbb colour."""
    r, g, b = (_linear(c) for c in _channels(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio, from 1 to 21."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# Machado, Oliveira and Fernandes (2009), full severity, on linear RGB.
DEFICIENCIES = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen_apart(a: str, b: str, matrix=None) -> float:
    """CIE76 colour difference of ``a`` and ``b`` as seen with ``matrix``'s deficiency."""

    def seen(colour: str) -> tuple[float, float, float]:
        rgb = tuple(_linear(c) for c in _channels(colour))
        if matrix is None:
            return rgb
        return tuple(
            min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in matrix
        )

    return sum((p - q) ** 2 for p, q in zip(_lab(seen(a)), _lab(seen(b)), strict=True)) ** 0.5


def css_variables() -> dict[str, str]:
    root = re.search(r":root\s*{(.*?)}", SITE_CSS.read_text(), re.S).group(1)
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})\s*;", root))


# -- the arithmetic itself, against figures published with WCAG ---------------------


def test_the_contrast_arithmetic_matches_wcags_own_figures():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast("#ffffff", "#ffffff") == pytest.approx(1.0)


# -- the palette ---------------------------------------------------------------------

BACKGROUNDS = {"board": BOARD, "Blue's box": FILLS[Player.BLUE], "Red's box": FILLS[Player.RED]}
BACKGROUNDS["last-turn halo"] = HALO


@pytest.mark.parametrize("background", BACKGROUNDS)
@pytest.mark.parametrize("line", ["Blue", "Red", "ink", "hint"])
def test_every_line_keeps_3_to_1_on_everything_it_can_be_drawn_over(line, background):
    colour = {
        "Blue": COLOURS[Player.BLUE],
        "Red": COLOURS[Player.RED],
        "ink": INK,
        "hint": HIGHLIGHT,
    }[line]
    assert contrast(colour, BACKGROUNDS[background]) >= 3.0


@pytest.mark.parametrize("player", [Player.BLUE, Player.RED])
def test_the_initial_in_a_claimed_box_is_readable_text(player):
    assert contrast(COLOURS[player], FILLS[player]) >= 4.5


def test_the_stylesheet_uses_the_same_palette_and_its_focus_ring_keeps_3_to_1():
    css = css_variables()
    assert css["blue"] == COLOURS[Player.BLUE] and css["red"] == COLOURS[Player.RED]
    assert css["focus"] == HIGHLIGHT and css["card"] == BOARD and css["ink"] == INK
    assert css["blue-soft"] == FILLS[Player.BLUE] and css["red-soft"] == FILLS[Player.RED]
    for background in ("paper", "card", "blue-soft", "red-soft"):
        assert contrast(css["focus"], css[background]) >= 3.0, background


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
def test_blue_and_red_stay_far_apart_under_each_colour_vision_deficiency(deficiency):
    matrix = DEFICIENCIES.get(deficiency)
    # CIE76: about 2.3 is just noticeable; 40 is plainly two different colours.
    assert seen_apart(COLOURS[Player.BLUE], COLOURS[Player.RED], matrix) >= 40
    assert seen_apart(FILLS[Player.BLUE], FILLS[Player.RED], matrix) >= 10


def test_whose_edge_it_is_never_rests_on_colour_alone():
    # The two line colours are nearly as dark as each other (greyscale cannot tell
    # them apart), so Red's edges carry a stripe and boxes carry initials.
    assert contrast(COLOURS[Player.BLUE], COLOURS[Player.RED]) < 1.5
    board = Board(1, 1)
    for edge in ("a1-b1", "a2-b2", "a1-a2", "b1-b2"):
        board.play(edge)
    svg = pictures.board_svg(board)
    red_edges = re.findall(r'class="edge drawn by-red[^"]*" data-edge="([^"]+)"', svg)
    assert sorted(red_edges) == ["a2-b2", "b1-b2"]
    assert svg.count('class="edge-stripe') == len(red_edges)
    assert ">R</text>" in svg
    assert 'class="edge-stripe' in pictures.edge_sample(Player.RED)
    assert 'class="edge-stripe' not in pictures.edge_sample(Player.BLUE)
