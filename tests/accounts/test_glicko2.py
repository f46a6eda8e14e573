"""Glicko-2, checked against the worked example in Glickman's paper."""

from __future__ import annotations

import pytest

from dotsboxes.accounts.glicko2 import Glicko2, expected_score, update

PAPER_PLAYER = Glicko2(1500, 200, 0.06)
PAPER_RESULTS = [(Glicko2(1400, 30), 1), (Glicko2(1550, 100), 0), (Glicko2(1700, 300), 0)]


def test_the_worked_example_of_the_paper_gives_its_numbers():
    new = update(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)
    # Glickman: r' = 1464.06, RD' = 151.52, sigma' = 0.05999 (rounded at each step).
    assert new.rating == pytest.approx(1464.06, abs=0.015)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_paper_example_on_the_glicko2_scale():
    # Step 2 of the paper: mu = 0, phi = 1.1513 for the player.
    assert PAPER_PLAYER.mu == 0
    assert PAPER_PLAYER.phi == pytest.approx(1.1513, abs=1e-4)
    # Step 3's E values for the three opponents.
    expected = [expected_score(PAPER_PLAYER, o) for o, _ in PAPER_RESULTS]
    assert expected == pytest.approx([0.639, 0.432, 0.303], abs=1e-3)


def test_a_rating_period_without_games_only_widens_the_deviation():
    new = update(PAPER_PLAYER, [])
    assert new.rating == PAPER_PLAYER.rating and new.volatility == PAPER_PLAYER.volatility
    assert new.deviation == pytest.approx((200**2 + (0.06 * 173.7178) ** 2) ** 0.5, rel=1e-9)


def test_the_deviation_never_grows_past_a_newcomers():
    assert update(Glicko2(1500, 350, 0.06), []).deviation == 350


def test_between_two_newcomers_the_winner_gains_what_the_loser_loses():
    a = b = Glicko2()
    winner, loser = update(a, [(b, 1)]), update(b, [(a, 0)])
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.deviation < 350 and loser.deviation < 350


def test_a_draw_between_equals_leaves_both_ratings_where_they_were():
    new = update(Glicko2(1600, 80), [(Glicko2(1600, 80), 0.5)])
    assert new.rating == pytest.approx(1600)
    assert new.deviation < 80


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one():
    me = Glicko2(1500, 100)
    up = update(me, [(Glicko2(1800, 100), 1)]).rating - 1500
    down = update(me, [(Glicko2(1200, 100), 1)]).rating - 1500
    assert up > down > 0


@pytest.mark.parametrize("score", [-0.1, 1.5, 2])
def test_a_score_outside_0_to_1_is_refused(score):
    with pytest.raises(ValueError, match="between 0 and 1"):
        update(Glicko2(), [(Glicko2(), score)])


def test_expected_scores_of_equally_certain_players_add_up_to_one():
    a, b = Glicko2(1700, 60), Glicko2(1450, 60)
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1)
    assert expected_score(a, b) > 0.5
