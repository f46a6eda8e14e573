"""The Glicko-2 rating system, as Mark Glickman describes it in
"Example of the Glicko-2 system" (2013).  Pure Python, no Django.

A rating is three numbers: the rating itself (1500 for a newcomer), the rating
deviation (how unsure we are: 350 for a newcomer, smaller with every game) and
the volatility (how erratic the player's results are).  The site treats each
rated game as its own rating period, so ``update`` is called with one result.

>>> player = Glicko2(1500, 200, 0.06)
>>> opponents = [Glicko2(1400, 30), Glicko2(1550, 100), Glicko2(1700, 300)]
>>> new = update(player, zip(opponents, [1, 0, 0]))
>>> f"{new.rating:.2f} {new.deviation:.2f} {new.volatility:.6f}"
'1464.05 151.52 0.059996'

(The paper, rounding its intermediate steps, prints 1464.06, 151.52 and 0.05999.)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's conversion factor, 400 / ln(10)
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
#: Glickman suggests 0.3 to 1.2; smaller values keep volatility from jumping.
TAU = 0.5
EPSILON = 0.000001  # convergence tolerance of the volatility iteration


@dataclass(frozen=True)
class Glicko2:
    """One player's rating on the familiar (Glicko) scale."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Glicko2, opponent: Glicko2) -> float:
    """The score ``player`` is expected to make against ``opponent`` (0 to 1)."""
    return _expected(player.mu, opponent.mu, opponent.phi)


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: solve f(x) = 0 by the Illinois variant of regula falsi."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def update(
    player: Glicko2, results: Iterable[tuple[Glicko2, float]], *, tau: float = TAU
) -> Glicko2:
    """``player``'s rating after one rating period of ``results``.

    ``results`` pairs each opponent's rating (as it was before the period) with
    the score against them: 1 for a win, 0.5 for a tie or an agreed draw, 0 for
    a loss.  With no results only the deviation grows, as the paper says.
    """
    results = list(results)
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Glicko2(player.rating, min(phi_star * SCALE, DEFAULT_DEVIATION), sigma)
    for _, score in results:
        if not 0 <= score <= 1:
            raise ValueError(f"a score is between 0 and 1, not {score!r}")
    v_inverse = 0.0
    improvement = 0.0
    for opponent, score in results:
        g = _g(opponent.phi)
        e = _expected(mu, opponent.mu, opponent.phi)
        v_inverse += g * g * e * (1 - e)
        improvement += g * (score - e)
    v = 1 / v_inverse
    delta = v * improvement
    new_sigma = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko2(
        new_mu * SCALE + DEFAULT_RATING,
        min(new_phi * SCALE, DEFAULT_DEVIATION),
        new_sigma,
    )
