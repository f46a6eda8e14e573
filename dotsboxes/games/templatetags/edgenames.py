"""Template filters for edge names in logs and lists."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from dotsboxes.games.history import edge_list_html

register = template.Library()


@register.filter
def edge_list(edges) -> SafeString:
    """``c1-c2, c3-c4``, each edge name kept on one line (a line may wrap after a comma)."""
    return edge_list_html(edges)
