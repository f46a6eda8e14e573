"""Theme names and one-line explanations, for people (slugs from engine.puzzles.THEMES)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

NAMES = {
    "sacrifice": _("Sacrifice"),
    "double-dealing": _("Double-dealing"),
    "hard-hearted-handout": _("Hard-hearted handout"),
    "take-all": _("Take all"),
    "all-but-two": _("Decline the last two boxes"),
    "all-but-four": _("Decline the last four boxes"),
    "shortest-chain": _("Open the shortest chain"),
    "loop-before-chain": _("Loop before chain"),
    "control": _("Control"),
    "counting": _("Counting long chains"),
}

BLURBS = {
    "sacrifice": _("Give boxes away now, while safe edges are left, to win more later."),
    "double-dealing": _("Decline boxes on offer so that your opponent must open the next chain."),
    "hard-hearted-handout": _(
        "Open a two-chain in its middle, so that your opponent cannot decline it."
    ),
    "take-all": _("Declining would be a mistake here: take every box on offer."),
    "all-but-two": _("Take all but the last two boxes of the chain and hand those over."),
    "all-but-four": _("Take all but the last four boxes of the loop and hand those over."),
    "shortest-chain": _("When you must open something, open the smallest chain first."),
    "loop-before-chain": _("Open the loop before the long chain: declining it costs more."),
    "control": _("Win control: make your opponent open the long chains at the end."),
    "counting": _("Change the number of long chains so that the long-chain rule favours you."),
}


def described(slugs: list[str]) -> list[dict]:
    return [{"slug": s, "name": NAMES.get(s, s), "blurb": BLURBS.get(s, "")} for s in slugs]
