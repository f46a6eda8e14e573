"""The tournament page's socket: standings pushed after each change, in the page's language."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.testing import WebsocketCommunicator

from dotsboxes import clock
from dotsboxes.asgi import application
from dotsboxes.tournaments import services
from tests.rooms.test_consumers import call, layer, own_loop  # noqa: F401 (fixture)
from tests.tournaments.conftest import make_players, resign

pytestmark = pytest.mark.django_db(transaction=True)


def socket(tournament_id: int, lang: str = "en") -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    path = f"/ws/tournaments/{tournament_id}/?lang={lang}"
    return WebsocketCommunicator(application, path, headers=headers)


def _setup():
    ann, ben = make_players("ann", "ben")
    t = services.tournament_create(
        user=ann,
        name="Pushed",
        kind="swiss",
        rounds=1,
        width=2,
        height=2,
        starts_at=clock.now() + timedelta(hours=1),
    )
    services.tournament_join(tournament_id=t.pk, user=ann)
    return t, ann, ben


@own_loop
async def test_watchers_hear_joins_and_results_with_the_standings(layer):  # noqa: F811
    t, ann, ben = await call(_setup)
    ws, zh = socket(t.pk), socket(t.pk, "zh-hans")
    assert (await ws.connect())[0] and (await zh.connect())[0]
    try:
        # On connect, the live part as it is: a change just before is never missed.
        first = await ws.receive_from(timeout=5)
        assert 'id="t-live"' in first and "ann" in first and "ben" not in first
        await zh.receive_from(timeout=5)
        await call(services.tournament_join, tournament_id=t.pk, user=ben)
        html = await ws.receive_from(timeout=5)
        assert 'id="t-live"' in html and 'hx-swap-oob="true"' in html
        assert "ben" in html and "Standings" in html
        chinese = await zh.receive_from(timeout=5)
        assert "ben" in chinese and "Standings" not in chinese
        await call(services.tournament_start, tournament_id=t.pk, user=ann)
        # Read on to the pushed pairing: in one full PostgreSQL run another push came
        # first (not seen again in 12 runs alone); pages order pushes by data-version.
        html = await ws.receive_from(timeout=5)
        while "Games in progress" not in html:
            html = await ws.receive_from(timeout=5)
        assert "ann vs ben" in html
        await zh.receive_from(timeout=5)

        def finish():
            game = t.pairings.get().game
            resign(game, ben)

        await call(finish)
        while "The tournament is over." not in html:
            html = await ws.receive_from(timeout=5)
        assert 'data-testid="points">2<' in html
    finally:
        await ws.disconnect()
        await zh.disconnect()
