"""Plain words for what the engine's analysis sees in a position."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from dotsboxes.engine.analysis import Component, analyse
from dotsboxes.rules import Board

from .wording import player_name


def _piece(component: Component) -> str:
    """One piece as a whole phrase (word order differs between languages)."""
    n = component.length
    kind = "loop" if component.kind == "loop" else {1: "single", 2: "pair"}.get(n, "chain")
    # Opened at both ends a piece plays like a loop: keeping control costs four boxes.
    opened = component.ends.count("opened")
    phrases = {
        ("loop", 0): gettext("a loop of %(n)d"),
        ("loop", 1): gettext("a loop of %(n)d (opened)"),
        ("loop", 2): gettext("a loop of %(n)d opened at both ends"),
        ("single", 0): gettext("a single box"),
        ("single", 1): gettext("a single box (opened)"),
        ("single", 2): gettext("a single box opened at both ends"),
        ("pair", 0): gettext("a pair"),
        ("pair", 1): gettext("a pair (opened)"),
        ("pair", 2): gettext("a pair opened at both ends"),
        ("chain", 0): gettext("a chain of %(n)d"),
        ("chain", 1): gettext("a chain of %(n)d (opened)"),
        ("chain", 2): gettext("a chain of %(n)d opened at both ends"),
    }
    return phrases[kind, min(opened, 2)] % {"n": n}


def _join(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    # Translators: the list separator, then how the last item joins the list.
    head = gettext(", ").join(words[:-1])
    return gettext("%(list)s and %(last)s") % {"list": head, "last": words[-1]}


def position_facts(board: Board, *, control: bool = False) -> list[tuple[str, str]]:
    """Label/text pairs: the pieces, the long-chain count and the safe edges left
    (``control``: and who is in control, when the analysis can tell).

    >>> from dotsboxes.rules import Board
    >>> board = Board(3, 1)
    >>> for edge in ("a1-b1", "a2-b2", "b1-c1", "b2-c2", "c1-d1", "c2-d2"):
    ...     _ = board.play(edge)
    >>> position_facts(board)
    [('Pieces', 'a chain of 3'), ('Long chains', '1 (loops: 0)'), ('Safe edges left', '0')]
    """
    a = analyse(board)
    pieces = sorted(a.components, key=lambda c: (c.kind == "loop", c.length))
    words = [_piece(c) for c in pieces]
    if a.junctions:
        n = len(a.junctions)
        words.append(
            ngettext(
                "%(n)d box still open on three or four sides",
                "%(n)d boxes still open on three or four sides",
                n,
            )
            % {"n": n}
        )
    facts = [
        (gettext("Pieces"), _join(words) or gettext("none")),
        (
            gettext("Long chains"),
            gettext("%(chains)d (loops: %(loops)d)") % {"chains": a.long_chains, "loops": a.loops},
        ),
        (gettext("Safe edges left"), str(len(a.safe_edges))),
    ]
    if control and a.controller is not None:
        facts.append(
            (
                gettext("Control"),
                gettext("%(player)s (controlled value %(value)d)")
                % {"player": player_name(a.controller), "value": a.controlled_value},
            )
        )
    elif control and (a.long_chains or a.loops):
        # While safe edges or junctions remain nobody controls yet: the long-chain rule
        # says who would have to open the first long chain if the count stayed as it is.
        facts.append(
            (
                gettext("Must open the first long chain"),
                gettext("%(player)s, if the number of long chains stays as it is")
                % {"player": player_name(a.favoured.other)},
            )
        )
    return facts
