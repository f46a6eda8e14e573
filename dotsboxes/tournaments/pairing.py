"""Pairing and scoring for tournaments: pure functions, no Django (tested on their own).

Points: a win 2, a draw 1, a loss 0, a bye 2 (it scores a win).  Integers keep
sums exact, and the arena's streak bonus (a win worth 4) fits the same scale.

**Swiss** (:func:`swiss_round`): the FIDE Dutch system (C.04.3) of the
``caissify-pairings`` library, which its author cross-checks against bbpPairings,
the FIDE-endorsed reference: players ranked by score, each score group's top half
meeting its bottom half, floaters to the next group, no repeated game, colours by
FIDE's preferences (Blue is White).  Pairing numbers are the players' order by seed
(rating at entry).  The Dutch rules never allow a repeat, so late in a small field
there may be no Dutch pairing; then our own search (:func:`_relaxed`) pairs the
round instead:

- an odd field gives a bye to the lowest-ranked player who has not had one (a
  second bye only when every other choice would repeat a game);
- the top unpaired player is paired first, preferring an opponent from the same
  score group at the Dutch position, then the nearest lower scores;
- nobody meets anyone twice, gets the same colour three times in a row, or has
  more than two games more with one colour; the search backtracks until all of that
  holds, and only when no such pairing exists are colours, then repeats, allowed;
- colours: the stronger due colour wins (absolute, then imbalance, then
  alternation); on equal claims the higher-ranked player gets theirs.

Tie-breaks (:func:`swiss_standings`): Buchholz (the sum of the opponents' scores;
a bye adds nothing), then Sonneborn-Berger (the scores of beaten opponents plus
half the scores of drawn ones), then the seed.

**Arena**: :func:`arena_pairs` pairs the players who are free, nearest scores
first, never the two who just played each other while anyone else could be
chosen; :func:`arena_points` scores a player's results in the order they finished,
with lichess's streak: after two wins in a row each win counts double (4) until a
draw or a loss.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from caissify_pairings.engines.dutch import dutch_pairings

WIN, DRAW, LOSS = 2, 1, 0
BYE_POINTS = WIN
BLUE, RED = "B", "R"
# The search gives up a strict pass after this many tries (huge fields are not our case;
# the relaxed passes then still answer).
MAX_STEPS = 200_000


@dataclass
class SwissPlayer:
    """A player as the pairing sees them.  ``colours`` is their games' colours in order
    (``"B"``/``"R"``), ``opponents`` everyone they have met, ``had_bye`` whether they
    have had a bye, ``seed`` a higher-is-stronger number (rating) for order among equals."""

    id: Hashable
    score: int = 0
    seed: float = 0.0
    opponents: set = field(default_factory=set)
    colours: list[str] = field(default_factory=list)
    had_bye: bool = False


@dataclass(frozen=True)
class SwissRound:
    """Board pairs as (blue, red) ids, best ranked first, and the bye (or None)."""

    pairs: tuple[tuple[Hashable, Hashable], ...]
    bye: Hashable | None


def _absolute_need(colours: Sequence[str]) -> str | None:
    """The colour a player must get (FIDE's absolute preference): the other one after
    two of the same in a row, or when they have had two more of one colour."""
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return RED if colours[-1] == BLUE else BLUE
    balance = _balance(colours)
    if abs(balance) >= 2:
        return RED if balance > 0 else BLUE
    return None


def _balance(colours: Sequence[str]) -> int:
    """Blues minus Reds."""
    return sum(1 if c == BLUE else -1 for c in colours)


def _due(colours: Sequence[str]) -> tuple[int, str | None]:
    """(strength, colour) of a player's claim: 3 absolute, 2 imbalance, 1 alternation."""
    need = _absolute_need(colours)
    if need:
        return 3, need
    balance = _balance(colours)
    if balance:
        return 2, RED if balance > 0 else BLUE
    if colours:
        return 1, RED if colours[-1] == BLUE else BLUE
    return 0, None


def colours_for(
    high: SwissPlayer, low: SwissPlayer, *, board: int = 0
) -> tuple[Hashable, Hashable]:
    """(blue id, red id) for a pair; ``high`` is the higher-ranked player."""
    hs, hc = _due(high.colours)
    ls, lc = _due(low.colours)
    if hc is None and lc is None:  # both new: alternate down the boards
        return (high.id, low.id) if board % 2 == 0 else (low.id, high.id)
    # Whose claim wins: the only one, or the stronger, or on equal claims the higher-ranked.
    if lc is None or (hc is not None and (hc != lc or hs >= ls)):
        return (high.id, low.id) if hc == BLUE else (low.id, high.id)
    return (low.id, high.id) if lc == BLUE else (high.id, low.id)


def _compatible(a: SwissPlayer, b: SwissPlayer, *, repeats: bool, colours: bool) -> bool:
    if not repeats and b.id in a.opponents:
        return False
    if colours:
        need_a, need_b = _absolute_need(a.colours), _absolute_need(b.colours)
        if need_a is not None and need_a == need_b:
            return False
    return True


def _id_order(player: SwissPlayer | ArenaPlayer) -> tuple:
    """Equal seeds in entry order: whole-number ids by value (as text, entry 10
    would come before entry 9), other ids by their text."""
    return (0, player.id, "") if isinstance(player.id, int) else (1, 0, str(player.id))


def _rank(players: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    return sorted(players, key=lambda p: (-p.score, -p.seed, _id_order(p)))


def _candidates(first: SwissPlayer, rest: list[SwissPlayer]) -> list[SwissPlayer]:
    """``first``'s opponents in the order the Dutch system prefers them."""
    group = [p for p in rest if p.score == first.score]
    # The group with ``first`` has n players: its top half (S1) meets its bottom half
    # (S2) in order, so ``first`` (S1's top) prefers S2's top, index n // 2 - 1 here.
    ideal = (len(group) + 1) // 2 - 1

    def key(p: SwissPlayer) -> tuple:
        if p.score == first.score:
            i = group.index(p)
            return (0, abs(i - ideal), -i)
        return (1, first.score - p.score if p.score < first.score else 10**9, 0)

    return sorted(rest, key=key)


def _match(ranked: list[SwissPlayer], *, repeats: bool, colours: bool) -> list | None:
    steps = [0]

    def go(rest: list[SwissPlayer]) -> list | None:
        if not rest:
            return []
        steps[0] += 1
        if steps[0] > MAX_STEPS:
            return None
        first, others = rest[0], rest[1:]
        for cand in _candidates(first, others):
            if not _compatible(first, cand, repeats=repeats, colours=colours):
                continue
            tail = go([p for p in others if p is not cand])
            if tail is not None:
                return [(first, cand), *tail]
        return None

    return go(ranked)


def swiss_round(players: Sequence[SwissPlayer], *, number: int | None = None) -> SwissRound:
    """Pair Swiss round ``number`` (by default one more than anyone has played): the
    FIDE Dutch system of ``caissify-pairings`` when it finds a pairing, else our own
    search with the rules relaxed (see the module's docstring)."""
    if number is None:
        number = max((len(p.colours) + int(p.had_bye) for p in players), default=0) + 1
    return _dutch(players, number) or _relaxed(players)


def _dutch(players: Sequence[SwissPlayer], number: int) -> SwissRound | None:
    """The library's FIDE Dutch pairing (C.04.3), or None when it finds none: the
    Dutch rules never allow a repeat, and late in a small field there may be no
    pairing without one.  Ids are mapped to the 1..n the library expects, Blue is
    White, and scores are given on the chess scale (a win 1) it assumes for byes."""
    ranked = _rank(players)
    # Pairing numbers are the initial order (by seed), kept from round to round.
    by_seed = sorted(players, key=lambda p: (-p.seed, _id_order(p)))
    index = {p.id: n for n, p in enumerate(by_seed, 1)}
    names = {"B": "white", "R": "black"}
    table = [
        {
            "id": index[p.id],
            "name": str(p.id),
            "score": p.score / WIN,
            "rating": int(p.seed),
            "starting_number": index[p.id],
            "pairing_number": index[p.id],
            "color_hist": [names[c] for c in p.colours],
            "float_history": [],
            "bye_count": int(p.had_bye),
        }
        for p in ranked
    ]
    met = {
        tuple(sorted((index[p.id], index[o]))) for p in ranked for o in p.opponents if o in index
    }
    try:
        # Round one pairs by seed alone (the library ignores scores there).
        found = dutch_pairings(table, met, number, number + 1)
    except Exception:  # no legal Dutch pairing (or a field it cannot take): fall back
        return None
    ids = {n: pid for pid, n in index.items()}
    pairs, bye = [], None
    for board in found:
        if board.get("black_id") is None:
            bye = ids[board["white_id"]]
        else:
            pairs.append((ids[board["white_id"]], ids[board["black_id"]]))
    seen = [x for pair in pairs for x in pair] + ([bye] if bye is not None else [])
    if sorted(map(str, seen)) != sorted(str(p.id) for p in ranked):
        return None  # not everyone paired once: do not trust it
    return SwissRound(pairs=tuple(pairs), bye=bye)


def _relaxed(players: Sequence[SwissPlayer]) -> SwissRound:
    ranked = _rank(players)
    for repeats, colours in ((False, True), (False, False), (True, False)):
        byes: list[SwissPlayer | None] = [None]
        if len(ranked) % 2:
            # The lowest-ranked without a bye first; a second bye only when no such
            # choice pairs the rest (a second bye is better than a repeated game).
            fresh = [p for p in reversed(ranked) if not p.had_bye]
            byes = fresh + [p for p in reversed(ranked) if p.had_bye]
        for bye in byes:
            field_ = [p for p in ranked if p is not bye]
            found = _match(field_, repeats=repeats, colours=colours)
            if found is not None:
                pairs = tuple(colours_for(a, b, board=n) for n, (a, b) in enumerate(found))
                return SwissRound(pairs=pairs, bye=bye.id if bye is not None else None)
    raise AssertionError("unreachable: with repeats and colours relaxed any field pairs")


# -- standings ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """One finished pairing: ``blue`` and ``red`` ids and the points each scored;
    a bye is ``red=None``."""

    blue: Hashable
    red: Hashable | None
    blue_points: int
    red_points: int


@dataclass(frozen=True)
class Standing:
    id: Hashable
    score: int
    buchholz: int
    sonneborn_berger: float
    played: int
    rank: int = 0


def swiss_scores(ids: Sequence[Hashable], games: Sequence[Game]) -> dict[Hashable, int]:
    scores = dict.fromkeys(ids, 0)
    for g in games:
        scores[g.blue] = scores.get(g.blue, 0) + g.blue_points
        if g.red is not None:
            scores[g.red] = scores.get(g.red, 0) + g.red_points
    return scores


def swiss_standings(
    ids: Sequence[Hashable], games: Sequence[Game], seeds: dict | None = None
) -> list[Standing]:
    """Standings by score, Buchholz, Sonneborn-Berger, then seed (higher first)."""
    seeds = seeds or {}
    scores = swiss_scores(ids, games)
    buchholz = dict.fromkeys(scores, 0)
    sb = dict.fromkeys(scores, 0.0)
    played = dict.fromkeys(scores, 0)
    for g in games:
        if g.red is None:
            continue
        for me, opp, mine in ((g.blue, g.red, g.blue_points), (g.red, g.blue, g.red_points)):
            played[me] += 1
            buchholz[me] += scores[opp]
            sb[me] += scores[opp] * mine / WIN  # a win: the whole score, a draw: half
    rows = [Standing(i, scores[i], buchholz[i], sb[i], played[i]) for i in scores]
    rows.sort(key=lambda s: (-s.score, -s.buchholz, -s.sonneborn_berger, -seeds.get(s.id, 0)))
    return [
        Standing(s.id, s.score, s.buchholz, s.sonneborn_berger, s.played, rank=n)
        for n, s in enumerate(rows, 1)
    ]


# -- arena -------------------------------------------------------------------------------


def arena_points(results: Sequence[str]) -> tuple[int, int]:
    """(points, current win streak) of results in the order they finished:
    ``"win"``, ``"draw"`` or ``"loss"``.

    >>> arena_points(["win", "win", "win", "draw", "win"])
    (11, 1)
    """
    points = streak = 0
    for result in results:
        if result == "win":
            points += WIN * 2 if streak >= 2 else WIN
            streak += 1
        else:
            points += DRAW if result == "draw" else LOSS
            streak = 0
    return points, streak


@dataclass(frozen=True)
class ArenaPlayer:
    """A free player: their score, their last opponent (or None), Blues minus Reds."""

    id: Hashable
    score: int = 0
    last_opponent: Hashable | None = None
    balance: int = 0


def arena_pairs(
    waiting: Sequence[ArenaPlayer], *, allow_rematch: bool = False
) -> list[tuple[Hashable, Hashable]]:
    """(blue, red) pairs among the free players, nearest scores first.

    The highest score is paired first, with the nearest score that is not the
    opponent they just played (``allow_rematch``: unless nobody else could ever be
    chosen).  Someone left over waits for the next free player.  The player who
    has had fewer Blues gets Blue."""
    order = sorted(waiting, key=lambda p: (-p.score, _id_order(p)))
    pairs = []
    while len(order) >= 2:
        first = order.pop(0)
        chosen = next(
            (
                p
                for p in order
                if allow_rematch or (p.id != first.last_opponent and first.id != p.last_opponent)
            ),
            None,
        )
        if chosen is None:
            continue  # only their last opponent is free: wait for someone else
        order.remove(chosen)
        if first.balance <= chosen.balance:
            pairs.append((first.id, chosen.id))
        else:
            pairs.append((chosen.id, first.id))
    return pairs
