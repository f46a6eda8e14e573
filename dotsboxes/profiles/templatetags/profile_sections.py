"""``{% load profile_sections %}``: the profile's rating chart and current correspondence games.

They live here, above accounts and rooms, because each needs both: a rating
change belongs to accounts, a game's time control to its room.
"""

from __future__ import annotations

from django import template
from django.db.models import Q
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from dotsboxes import clock
from dotsboxes.accounts.models import RatingChange
from dotsboxes.games.models import Game, Side
from dotsboxes.rooms.models import CORRESPONDENCE_FROM, Room

from ..chart import Line, Point, rating_svg

register = template.Library()

CHART_GAMES = 300  # the most recent rated games drawn (older ones scroll off the left)


def time_control(timer_seconds: int | None) -> str:
    """The family of a game's clock: ``untimed``, ``live`` or ``correspondence``."""
    if not timer_seconds:
        return "untimed"
    return "correspondence" if timer_seconds >= CORRESPONDENCE_FROM else "live"


def _control_names() -> dict[str, str]:
    return {
        "live": _("Live (seconds a move)"),
        "correspondence": _("Correspondence (days a move)"),
        "untimed": _("No clock"),
    }


@register.inclusion_tag("profiles/_rating_history.html")
def rating_history(player: object) -> dict:
    """The chart of ``player``'s rating after each rated game, one line per time control."""
    recent = list(
        RatingChange.objects.filter(user=player)
        .order_by("-created_at", "-id")
        .values_list("game_id", "rating_before", "rating_after", "created_at")[:CHART_GAMES]
    )[::-1]
    if not recent:
        return {"svg": ""}
    timers = dict(
        Room.objects.filter(game_id__in=[r[0] for r in recent]).values_list(
            "game_id", "timer_seconds"
        )
    )
    names = _control_names()
    points: dict[str, list[Point]] = {key: [] for key in names}
    for index, (game_id, before, after, when) in enumerate(recent, start=1):
        delta = round(after) - round(before)
        line = points[time_control(timers.get(game_id))]
        if not line:  # each line starts from the rating its first game began with
            line.append(
                Point(index - 1, before, _("Before: %(rating)d") % {"rating": round(before)})
            )
        label = _("%(date)s: %(rating)d (%(delta)s)") % {
            "date": date_format(when, "DATE_FORMAT"),
            "rating": round(after),
            "delta": f"{delta:+d}",
        }
        line.append(Point(index, after, label))
    lines = [Line(key, names[key], pts) for key, pts in points.items() if pts]
    first, last = recent[0], recent[-1]
    description = ngettext(
        "Rating after each of %(n)d rated game, from %(first)d to %(last)d.",
        "Rating after each of %(n)d rated games, from %(first)d to %(last)d.",
        len(recent),
    ) % {"n": len(recent), "first": round(first[1]), "last": round(last[2])}
    svg = rating_svg(
        lines,
        title=_("Rating history"),
        description=description,
        first=date_format(first[3], "DATE_FORMAT"),
        last=date_format(last[3], "DATE_FORMAT"),
    )
    legend = [
        {
            "key": line.key,
            "name": line.name,
            "rating": round(line.points[-1].rating),
            "games": len(line.points) - 1,
        }
        for line in lines
    ]
    return {"svg": svg, "legend": legend}


@register.inclusion_tag("profiles/_correspondence.html", takes_context=True)
def correspondence_games(context: template.Context, player: object) -> dict:
    """``player``'s correspondence games under way: opponent, who moves, time left."""
    rooms = (
        Room.objects.filter(
            Q(game__blue_user=player) | Q(game__red_user=player),
            game__status=Game.Status.ACTIVE,
            timer_seconds__gte=CORRESPONDENCE_FROM,
        )
        .select_related("game")
        .order_by("turn_deadline", "-game__updated_at")[:50]
    )
    now = clock.now()
    rows = []
    for room in rooms:
        game = room.game
        side = Side.BLUE if game.blue_user_id == player.pk else Side.RED
        other = Side.RED if side == Side.BLUE else Side.BLUE
        seated = bool(getattr(game, f"{other}_user_id") or getattr(game, f"{other}_token"))
        rows.append(
            {
                "room": room,
                "opponent": game.label_of(other) if seated else "",
                "opponent_id": getattr(game, f"{other}_user_id"),
                "their_turn": seated and room.to_move == side,
                "deadline": room.turn_deadline if seated else None,
            }
        )
    return {"rows": rows, "player": player, "now": now, "viewer": context.get("user")}
