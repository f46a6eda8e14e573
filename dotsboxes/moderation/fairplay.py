"""Fair-play figures: how often a player's edge was a proved best edge where there was
a real choice, the boxes they lost against best play, and how their figures compare
with players of the same rating.  Plain Python on plain data (an analysis's edge
entries, counts): the staff pages and ``tests/bench/fairplay.py`` use the same code.

A **real choice** is a position the analysis solved exactly (``exact``) in which not
every legal edge has the same value: ``best`` (every best edge, when exact) is shorter
than the list of legal edges.  Only the mover's own edges count: a stand-in or a
timed-out turn the computer drew (``by_computer``) is the computer's, not theirs.

The **flag** (docs/FAIRPLAY.md says how its numbers were chosen) asks how likely
the player's few misses would be from the most accurate player their rating band
plausibly holds.  That player misses a real choice at the **reference miss rate**:
the band's median miss rate less :data:`FLAG_SPREADS` robust spreads (scaled median
absolute deviation), never below :data:`MIN_MISS`.  The player is flagged when so few
misses out of so many choices would happen by chance with probability below
:data:`ALPHA` (binomial tail).  A few lucky games are never enough (the tail needs
many choices), and a band of strong players is judged against strong players.  A flag
is for staff eyes only: it is evidence to review, not a verdict, and nothing about it
is shown to players.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

#: Recent rated games a player's figures cover.
RECENT_GAMES = 20
#: Fewer real choices than this and no comparison is made (too little to say anything).
MIN_CHOICES = 30
#: Players of a rating within this many points form the band a player is compared with.
BAND = 150
#: Fewer players than this in the band and it widens to the nearest this many by rating.
MIN_PEERS = 20
#: The reference miss rate is this many robust spreads below the band's median.
FLAG_SPREADS = 2.0
#: ... and never below this: the best people still miss some real choices.
MIN_MISS = 0.05
#: The spread is never taken below this (a band of near-identical players would
#: otherwise flag anyone a little better).
MIN_SPREAD = 0.03
#: Flag when the player's misses are this unlikely at the reference miss rate.
ALPHA = 1e-3


def edge_count(width: int, height: int) -> int:
    """Edges of a ``width`` x ``height`` boxes board."""
    return width * (height + 1) + height * (width + 1)


@dataclass
class GameFigures:
    """One player's figures in one game."""

    choices: int = 0  # positions with a real choice, solved exactly
    matched: int = 0  # of those, where their edge was a best edge
    lost: int = 0  # boxes lost against best play, over the exact positions
    exact: int = 0  # their edges in exactly solved positions
    edges: int = 0  # their own edges (the computer's stand-in edges left out)
    times: list[float] = field(default_factory=list)  # seconds before each own edge

    @property
    def rate(self) -> float | None:
        return self.matched / self.choices if self.choices else None


def game_figures(
    entries: Sequence[dict],
    side: str,
    *,
    width: int,
    height: int,
    by_computer: Iterable[int] = (),
    times: dict[int, float] | None = None,
) -> GameFigures:
    """``side``'s figures from an analysis's edge ``entries`` (``annotate``'s output).

    ``by_computer``: plies the computer drew for a seat (left out); ``times``: seconds
    spent before each ply, when known."""
    total = edge_count(width, height)
    computer = set(by_computer)
    out = GameFigures()
    for entry in entries:
        ply = entry["ply"]
        if entry["side"] != side or ply in computer:
            continue
        out.edges += 1
        if times and ply in times:
            out.times.append(times[ply])
        if not entry.get("exact"):
            continue
        out.exact += 1
        out.lost += int(entry.get("lost") or 0)
        legal = total - (ply - 1)
        best = entry.get("best") or []
        if len(best) < legal:
            out.choices += 1
            out.matched += entry["edge"] in best
    return out


@dataclass
class PlayerFigures:
    """A player's figures over their recent rated games."""

    games: int
    choices: int
    matched: int
    lost: int
    exact: int
    median_time: float | None

    @property
    def rate(self) -> float | None:
        return self.matched / self.choices if self.choices else None

    @property
    def lost_per_exact(self) -> float | None:
        """Boxes lost per edge in an exact position (0 for perfect play)."""
        return self.lost / self.exact if self.exact else None


def combine(games: Sequence[GameFigures]) -> PlayerFigures:
    times = [t for g in games for t in g.times]
    return PlayerFigures(
        games=len(games),
        choices=sum(g.choices for g in games),
        matched=sum(g.matched for g in games),
        lost=sum(g.lost for g in games),
        exact=sum(g.exact for g in games),
        median_time=statistics.median(times) if times else None,
    )


def miss_chance(misses: int, n: int, rate: float) -> float:
    """The chance of at most ``misses`` misses in ``n`` choices, each missed with
    probability ``rate`` (the binomial distribution's lower tail).

    >>> round(miss_chance(0, 50, 0.1), 5), round(miss_chance(5, 50, 0.1), 3)
    (0.00515, 0.616)
    """
    if n <= 0:
        return 1.0
    if rate <= 0:
        return 1.0
    if rate >= 1:
        return 0.0 if misses < n else 1.0
    log_q, log_p = math.log(rate), math.log1p(-rate)
    return min(
        1.0,
        sum(
            math.exp(math.log(math.comb(n, k)) + k * log_q + (n - k) * log_p)
            for k in range(0, min(misses, n) + 1)
        ),
    )


def peers_of(rating: float, others: Sequence[tuple[float, float]]) -> list[float]:
    """Match rates of the players rated within :data:`BAND` of ``rating``, or of the
    :data:`MIN_PEERS` nearest by rating when the band holds fewer.
    ``others``: (rating, match rate) of every other player with enough choices."""
    band = [rate for r, rate in others if abs(r - rating) <= BAND]
    if len(band) >= MIN_PEERS:
        return band
    nearest = sorted(others, key=lambda other: abs(other[0] - rating))[:MIN_PEERS]
    return [rate for _r, rate in nearest]


@dataclass
class Assessment:
    """How a player's match rate stands among their rating band (staff only)."""

    peers: int
    percentile: float | None  # share of peers with a lower match rate, in %
    median: float | None  # the band's median match rate
    reference: float | None  # the reference miss rate the player is tested against
    chance: float | None  # how likely so few misses are at that rate
    flagged: bool
    enough: bool  # enough real choices and peers to compare at all


def assess(player: PlayerFigures, peer_rates: Sequence[float]) -> Assessment:
    """Compare ``player`` with ``peer_rates`` (the band's match rates)."""
    rate = player.rate
    percentile = None
    if rate is not None and peer_rates:
        percentile = 100 * sum(1 for p in peer_rates if p < rate) / len(peer_rates)
    if rate is None or player.choices < MIN_CHOICES or len(peer_rates) < MIN_PEERS // 2:
        return Assessment(len(peer_rates), percentile, None, None, None, False, False)
    misses = [1 - p for p in peer_rates]
    median = statistics.median(misses)
    spread = max(MIN_SPREAD, 1.4826 * statistics.median(abs(m - median) for m in misses))
    reference = max(MIN_MISS, median - FLAG_SPREADS * spread)
    chance = miss_chance(player.choices - player.matched, player.choices, reference)
    return Assessment(
        peers=len(peer_rates),
        percentile=percentile,
        median=1 - median,
        reference=reference,
        chance=chance,
        flagged=chance < ALPHA,
        enough=True,
    )
