"""``{% load bots %}``: the BOT mark beside a name, and the bot panel of a profile."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _

from dotsboxes.api.marks import bot_ids
from dotsboxes.api.web import profile_panel

register = template.Library()


def _badge() -> str:
    return format_html(
        ' <span class="bot-badge" title="{}">{}</span>',
        _("A program plays for this account"),
        _("BOT"),
    )


@register.simple_tag
def bot_mark(user_id: int | None) -> str:
    """The BOT mark (after a space) if ``user_id`` is a bot account, else nothing."""
    return _badge() if user_id and user_id in bot_ids() else ""


@register.simple_tag
def bot_named(name: str, user_id: int | None) -> str:
    """``name`` followed by the BOT mark if ``user_id`` is a bot account (for lists that
    hold a name and an account id rather than a game's seat)."""
    mark = bot_mark(user_id)
    return format_html("{}{}", name, mark) if mark else name


@register.simple_tag
def seat_bot_mark(game: object, side: str) -> str:
    """The BOT mark if a bot sits on ``side`` of ``game``."""
    return bot_mark(getattr(game, f"{side}_user_id", None))


@register.filter
def is_bot_seat(game: object, side: str) -> bool:
    user_id = getattr(game, f"{side}_user_id", None)
    return bool(user_id and user_id in bot_ids())


@register.inclusion_tag("api/_profile_panel.html", takes_context=True)
def bot_panel(context: template.Context, player: object) -> dict:
    """Bot status, API tokens (for the owner) and the challenge form (for others)."""
    return profile_panel(context["request"], player)


@register.simple_tag
def seat_named(game: object, side: str, *, display: bool = False) -> str:
    """The name on ``side`` of ``game`` as the reader reads it (``display``: with its
    colour, "Ada (Blue)"), with the BOT mark if due."""
    label = game.display_of(side) if display else game.label_of(side)  # type: ignore[attr-defined]
    mark = seat_bot_mark(game, side)
    return format_html("{}{}", label, mark) if mark else label


@register.simple_tag
def opponent_named(game: object, side: str) -> str:
    """The name facing ``side`` in ``game``, with the BOT mark if due."""
    return seat_named(game, "red" if side == "blue" else "blue")
