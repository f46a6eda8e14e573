"""The words for the rules' values in the reader's language: the players' and the
computer levels' names, sizes, box counts, outcomes and why a typed edge is none.

Pure functions of rules values (no models), so the models, forms, pages and
pushes of every app say them the same way.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy, ngettext

from dotsboxes.rules import Outcome, Player

# The players' names in the reader's language (the rules core says "Blue" and "Red").
PLAYER_NAMES = {Player.BLUE: gettext_lazy("Blue"), Player.RED: gettext_lazy("Red")}

#: The computer's levels (``dotsboxes.engine.players.LEVELS``) as people read them.
LEVEL_NAMES = {
    "beginner": gettext_lazy("beginner"),
    "casual": gettext_lazy("casual"),
    "club": gettext_lazy("club"),
    "expert": gettext_lazy("expert"),
    "master": gettext_lazy("master"),
}


def level_name(level: str) -> str:
    """A computer level's name in the active language (the code itself if unknown)."""
    return str(LEVEL_NAMES.get(level, level))


def player_name(player: Player) -> str:
    """ "Blue" or "Red" in the active language."""
    return str(PLAYER_NAMES[player])


def boxes_text(n: int) -> str:
    """``n`` with the right noun: "1 box", "2 boxes"."""
    return ngettext("%(n)d box", "%(n)d boxes", n) % {"n": n}


def outcome_text(outcome: Outcome | None) -> str:
    """A finished board's result, e.g. "Blue wins, 5-4" or "Tie, 2-2"."""
    if outcome is None:
        return ""
    if outcome.winner is None:
        return gettext("Tie, %(blue)d-%(red)d") % {"blue": outcome.blue, "red": outcome.red}
    return gettext("%(player)s wins, %(high)d-%(low)d") % {
        "player": player_name(outcome.winner),
        "high": max(outcome.scores),
        "low": min(outcome.scores),
    }


def edge_error(text: str, error: Exception | None = None) -> str:
    """Why ``text`` (typed by a player) names no edge of the board.

    ``error`` is the rules core's (English) ``InvalidEdgeError``; its kind picks
    the sentence.
    """
    why = str(error or "")
    if "diagonal" in why:
        message = gettext("“%(text)s”: those dots are diagonal to each other; an edge is a side.")
    elif "same dot" in why:
        message = gettext("“%(text)s” names one dot twice; an edge joins two neighbouring dots.")
    elif "not neighbours" in why:
        message = gettext("“%(text)s”: those dots are not neighbours; an edge joins two of them.")
    elif "not on this" in why:
        message = gettext("“%(text)s” is not on this board.")
    else:
        message = gettext(
            "“%(text)s” is not an edge of this board: name two neighbouring dots, such as a1-b1."
        )
    return message % {"text": text}


def size_text(width: int, height: int) -> str:
    """A board's size in boxes and in dots, in the active language."""
    # The multiplication sign, as every page writes sizes (records keep an ASCII x).
    return gettext("%(w)d × %(h)d boxes (%(dw)d × %(dh)d dots)") % {  # noqa: RUF001
        "w": width,
        "h": height,
        "dw": width + 1,
        "dh": height + 1,
    }
