"""``{% load moderation %}``: the block button and the fair-play label of a profile,
and the style rule that hides blocked players' chat lines in a room."""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join

from dotsboxes.moderation import services
from dotsboxes.moderation.models import Block, FairPlayMark

register = template.Library()


@register.inclusion_tag("moderation/_profile.html", takes_context=True)
def moderation_panel(context: template.Context, player: object) -> dict:
    """Block / unblock for a signed-in visitor; the fair-play label for everyone when
    staff marked the account; the owner's own list link and a warning they were given."""
    request = context["request"]
    user = request.user
    own = user.is_authenticated and user.pk == player.pk
    return {
        "request": request,
        "player": player,
        "own": own,
        "can_block": user.is_authenticated and not own and not player.is_staff,
        "blocking": user.is_authenticated
        and not own
        and Block.objects.filter(blocker=user, blocked=player).exists(),
        "mark": FairPlayMark.objects.filter(user=player).first(),
        "warning": services.latest_warning(player.pk) if own else None,
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag(takes_context=True)
def hidden_players_style(context: template.Context, where: str) -> str:
    """A style rule hiding what the reader should not see of players they are apart from:
    ``"chat"``, the chat lines of everyone they blocked; ``"lobby"``, the rooms of
    everyone with a block between them either way.

    A room's and the lobby's pushes are rendered once for all their readers, so those
    lines reach the page; the rule keeps them out of sight (and out of screen readers),
    pushed or not.  The first page is filtered on the server as well."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    if where == "chat":
        ids, scope = services.blocked_ids(user.pk), ".chat"
    else:
        ids, scope = services.apart_ids(user.pk), ".room-list"
    if not ids:
        return ""
    rule = scope + ' [data-by~="u{}"]'
    selectors = format_html_join(",", rule, ((i,) for i in sorted(ids)))
    return format_html("<style>{}{{display:none}}</style>", selectors)
