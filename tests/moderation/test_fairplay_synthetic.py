"""The fair-play flag on a synthetic population, small enough for CI (the full figures:
``tests/bench/fairplay.py`` and docs/FAIRPLAY.md).  3 x 2 boxes games, every position
solved exactly; 200 ordinary accounts (one in ten playing far above their rating) and
20 accounts that always play a proved best edge."""

from __future__ import annotations

import pytest

from tests.bench import fairplay as bench


@pytest.fixture(scope="module")
def people():
    pool = bench.build_pool(8, 3, 2, seed=1)
    return bench.run(pool, seed=5, games=20, ordinary=200, cheaters=20, width=3, height=2)


def test_no_ordinary_account_is_ever_flagged(people):
    ordinary = [p for p in people if p["kind"] == "ordinary"]
    assert len(ordinary) == 200
    assert [p["rating"] for p in ordinary if p["flags"]] == []


def test_every_engine_user_at_100_percent_is_flagged_within_20_games(people):
    engine = [p for p in people if p["kind"] == "engine100"]
    first = sorted(p["flags"][0] for p in engine if p["flags"])
    assert len(first) == len(engine) == 20
    # 3 x 2 games hold about 5.6 real choices per player: the median engine user is
    # flagged after about 70 choices (3 x 3 in the bench: within 10 games).
    assert first[len(first) // 2] <= 15
