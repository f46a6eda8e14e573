"""A player's tournaments on their profile: place, points and games."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from dotsboxes.tournaments import services
from dotsboxes.tournaments.standings import standings
from tests.tournaments.conftest import make_players, resign
from tests.tournaments.test_services import open_games, swiss

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_profile_shows_each_players_place_and_points(client):
    players = make_players("ann", "ben", "cat", "dan")
    order = {p.username: n for n, p in enumerate(players)}  # dan is the strongest
    t = swiss(players[0], rounds=2)
    for p in players:
        services.tournament_join(tournament_id=t.pk, user=p)
    services.tournament_start(tournament_id=t.pk, user=players[0])
    for round_ in (1, 2):
        for p in open_games(t, round_):
            resign(p.game, min(p.blue.user, p.red.user, key=lambda u: order[u.username]))
    t.refresh_from_db()
    assert t.status == "finished"
    table = {row.name: row for row in standings(t)}
    for name in ("ann", "dan"):
        page = client.get(reverse("accounts:profile", args=[name])).content.decode()
        section = page[page.index('class="tournament-results"') :]
        section = section[: section.index("</section>")]
        assert t.get_absolute_url() in section and "Thursday Swiss" in section
        row = table[name]
        cells = re.findall(r"<td>([^<]*)</td>", section)
        assert cells == [f"{row.rank} of 4", str(row.score), "2"]
    assert table["dan"].rank == 1 and table["dan"].score == 4


def test_a_player_in_no_tournament_has_no_such_section(client):
    make_players("eve")
    page = client.get(reverse("accounts:profile", args=["eve"])).content.decode()
    assert "tournament-results" not in page
