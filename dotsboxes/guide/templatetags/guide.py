"""Template filters for the guide's texts."""

from __future__ import annotations

import re

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from dotsboxes.guide.boards import try_url as _try_url
from dotsboxes.rules import Board

register = template.Library()

_EDGE = re.compile(r"\b([a-j](?:10|[1-9])-[a-j](?:10|[1-9]))\b")
_SCORE = re.compile("\\b(\\d+\N{EN DASH}\\d+)\\b")


@register.filter
def edges(text: str) -> SafeString:
    """Escape ``text`` and keep each edge name (``a2-a3``) and score on one line."""
    escaped = str(conditional_escape(text))
    # The escaped text still spells edges the same way: escaping touches only <>&'".
    marked = _EDGE.sub(r'<span class="edge-name">\1</span>', escaped)
    return mark_safe(_SCORE.sub(r'<span class="edge-name">\1</span>', marked))


@register.filter
def try_url(board: Board) -> str:
    """The "try it" link: the play page starting from ``board``, playing the side to move."""
    return _try_url(board)


@register.filter
def side_name(side: object) -> str:
    """ "blue"/"red" (or a ``Player``) as the reader's word for that player."""
    from dotsboxes.games.wording import player_name
    from dotsboxes.rules import Player

    if not isinstance(side, Player):
        side = Player.RED if str(side).lower() == "red" else Player.BLUE
    return player_name(side)


@register.filter
def translated(text: object) -> str:
    """The guide's data texts (from its data files, or marked with ``gettext_noop``) in
    the reader's language.

    A list (of answer labels or edges) comes back as one comma-separated string.
    """
    from dotsboxes.guide.texts import local

    if isinstance(text, list | tuple):
        return ", ".join(local(item) for item in text)
    return local(text)


@register.filter
def size_of(board: Board) -> str:
    """A board's size in boxes and dots, in the reader's language."""
    from dotsboxes.games.wording import size_text

    return size_text(board.width, board.height)
