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


@register.filter
def edges(text: str) -> SafeString:
    """Escape ``text`` and keep each edge name (``a2-a3``) on one line."""
    escaped = str(conditional_escape(text))
    # The escaped text still spells edges the same way: escaping touches only <>&'".
    return mark_safe(_EDGE.sub(r'<span class="edge-name">\1</span>', escaped))


@register.filter
def try_url(board: Board) -> str:
    """The "try it" link: the play page starting from ``board``, playing the side to move."""
    return _try_url(board)
