"""``{% load tournament_profile %}``: a player's tournaments on their profile page.

Accounts cannot import the tournaments (they sit below them); the profile's
template asks for this section by its tag instead.
"""

from __future__ import annotations

from django import template

from ..models import Tournament
from ..standings import standings

register = template.Library()

SHOWN = 10  # the most recent tournaments on a profile (each needs its standings worked out)


@register.inclusion_tag("tournaments/_profile_results.html")
def tournament_results(player: object) -> dict:
    """The player's place, score and games in each of their recent tournaments."""
    tournaments = (
        Tournament.objects.filter(entries__user=player)
        .exclude(status=Tournament.Status.UPCOMING)
        .order_by("-starts_at", "-id")[:SHOWN]
    )
    rows = []
    for tournament in tournaments:
        table = standings(tournament)
        mine = next((r for r in table if r.entry.user_id == player.pk), None)
        if mine is not None:
            rows.append({"tournament": tournament, "row": mine, "of": len(table)})
    return {"rows": rows}
