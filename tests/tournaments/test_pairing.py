"""The pure pairing and scoring of tournaments (no database)."""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from dotsboxes.tournaments import pairing
from dotsboxes.tournaments.pairing import (
    ArenaPlayer,
    Game,
    SwissPlayer,
    arena_pairs,
    arena_points,
    swiss_round,
    swiss_standings,
)


def test_the_pairing_module_imports_nothing_from_django():
    tree = ast.parse(Path(pairing.__file__).read_text())
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not [n for n in names if n.startswith(("django", "dotsboxes"))]


def test_round_one_pairs_top_half_against_bottom_half_with_alternating_colours():
    players = [SwissPlayer(id=n, seed=100 - n) for n in range(1, 9)]
    result = swiss_round(players)
    assert result.bye is None
    assert result.pairs == ((1, 5), (6, 2), (3, 7), (8, 4))


def test_equal_seeds_rank_in_entry_order_past_ten():
    # Entries 9 and 10 with one seed: 9 entered first and is the top seed (as text,
    # "10" < "9" put the later entrant first, and which player had Blue changed with
    # how many entries the database had seen).
    result = swiss_round([SwissPlayer(id=10, seed=1500), SwissPlayer(id=9, seed=1500)])
    assert result.pairs == ((9, 10),)


def test_an_odd_field_gives_the_bye_to_the_lowest_ranked_player_without_one():
    players = [SwissPlayer(id=n, seed=10 - n) for n in range(1, 6)]
    players[4].had_bye = True  # player 5, the lowest, already had one
    result = swiss_round(players)
    assert result.bye == 4
    assert sorted(itertools.chain(*result.pairs)) == [1, 2, 3, 5]


def test_players_who_met_are_not_paired_again():
    a, b, c, d = (SwissPlayer(id=x, score=2 if x in "ab" else 0) for x in "abcd")
    a.opponents, b.opponents = {"b"}, {"a"}
    pairs = {frozenset(p) for p in swiss_round([a, b, c, d]).pairs}
    assert frozenset("ab") not in pairs


def test_two_reds_in_a_row_get_blue_next():
    a = SwissPlayer(id="a", score=2, seed=2, colours=["B", "B"])
    b = SwissPlayer(id="b", score=2, seed=1, colours=["R", "R"])
    assert swiss_round([a, b]).pairs == (("b", "a"),)


def test_scores_group_before_seeds_and_a_floater_meets_the_next_group():
    players = [
        SwissPlayer(id="top", score=4, seed=1),
        SwissPlayer(id="mid1", score=2, seed=9),
        SwissPlayer(id="mid2", score=2, seed=8),
        SwissPlayer(id="low", score=0, seed=10),
    ]
    pairs = {frozenset(p) for p in swiss_round(players, number=3).pairs}
    assert frozenset({"top", "mid1"}) in pairs and frozenset({"mid2", "low"}) in pairs


def _play(n: int, rounds: int, rng: random.Random) -> list[SwissPlayer]:
    """Play a Swiss with random results; check every round's invariants."""
    players = {i: SwissPlayer(id=i, seed=rng.random()) for i in range(n)}
    for _ in range(rounds):
        result = swiss_round(list(players.values()))
        seen = list(itertools.chain(*result.pairs))
        if result.bye is not None:
            seen.append(result.bye)
        assert sorted(seen) == list(range(n)), "everyone paired once, or the one bye"
        assert (result.bye is not None) == (n % 2 == 1)
        if result.bye is not None:
            assert not players[result.bye].had_bye, "rounds up to half the field: one bye each"
            players[result.bye].had_bye = True
            players[result.bye].score += pairing.BYE_POINTS
        for blue, red in result.pairs:
            b, r = players[blue], players[red]
            b.opponents.add(red)
            r.opponents.add(blue)
            b.colours.append("B")
            r.colours.append("R")
            outcome = rng.choice([(2, 0), (1, 1), (0, 2)])
            b.score += outcome[0]
            r.score += outcome[1]
    return list(players.values())


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 10), seed=st.integers(0, 10**6))
def test_a_swiss_never_repeats_a_pairing_and_keeps_colours_balanced(n, seed):
    # Rounds up to half the field: a pairing without repeats and a third same colour
    # always exists then, so the strict pass must find it.
    rounds = max(1, n // 2)
    players = _play(n, rounds, random.Random(seed))
    for p in players:
        games = len(p.colours)
        assert len(p.opponents) == games, f"{p.id} met someone twice"
        assert "BBB" not in "".join(p.colours) and "RRR" not in "".join(p.colours)
        assert abs(pairing._balance(p.colours)) <= 2


def _repeat_free_exists(players: list[SwissPlayer]) -> bool:
    """Brute force: can this round be paired with no repeat (byes as the rules allow)?"""
    byes: list = [None]
    if len(players) % 2:
        byes = players  # a second bye rather than a repeat, when it comes to that

    def perfect(rest: list[SwissPlayer]) -> bool:
        if not rest:
            return True
        first = rest[0]
        return any(
            perfect([p for p in rest[1:] if p is not q])
            for q in rest[1:]
            if q.id not in first.opponents
        )

    return any(perfect([p for p in players if p is not bye]) for bye in byes)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 7), seed=st.integers(0, 10**6))
def test_repeats_only_when_no_other_pairing_exists(n, seed):
    rng = random.Random(seed)
    players = {i: SwissPlayer(id=i, seed=rng.random()) for i in range(n)}
    for _ in range(n + 1):  # past a round robin: repeats become unavoidable
        avoidable = _repeat_free_exists(list(players.values()))
        result = swiss_round(list(players.values()))
        repeated = any(red in players[blue].opponents for blue, red in result.pairs)
        assert repeated == (not avoidable)
        if result.bye is not None:
            players[result.bye].had_bye = True
        for blue, red in result.pairs:
            players[blue].opponents.add(red)
            players[red].opponents.add(blue)
            players[blue].colours.append("B")
            players[red].colours.append("R")
            players[rng.choice([blue, red])].score += 2


def test_standings_break_ties_by_buchholz_then_sonneborn_berger():
    # a beat b, b beat c, c beat a (all 2 points); d lost to everyone.
    games = [
        Game("a", "b", 2, 0),
        Game("b", "c", 2, 0),
        Game("c", "a", 2, 0),
        Game("a", "d", 2, 0),
        Game("d", "b", 0, 2),
        Game("c", "d", 1, 1),
    ]
    rows = swiss_standings("abcd", games)
    assert [(r.id, r.score, r.buchholz) for r in rows] == [
        ("a", 4, 8),
        ("b", 4, 8),
        ("c", 3, 9),
        ("d", 1, 11),
    ]
    # a and b tie on Buchholz; a beat b (4) and d (1): SB 5; b beat c (3) and d (1): 4.
    assert rows[0].sonneborn_berger == 5 and rows[1].sonneborn_berger == 4


def test_a_bye_scores_a_win_but_adds_nothing_to_buchholz():
    rows = swiss_standings("ab", [Game("a", None, 2, 0), Game("b", "a", 0, 2)])
    assert [(r.id, r.score, r.buchholz, r.played) for r in rows] == [
        ("a", 4, 0, 1),
        ("b", 0, 4, 1),
    ]


def test_arena_wins_count_double_after_two_in_a_row_until_a_non_win():
    assert arena_points(["win", "win"]) == (4, 2)
    assert arena_points(["win", "win", "win", "win"]) == (12, 4)
    assert arena_points(["win", "win", "win", "loss", "win"]) == (10, 1)
    assert arena_points(["draw", "win", "draw"]) == (4, 0)


def test_arena_pairs_nearest_scores_and_avoids_an_immediate_rematch():
    waiting = [
        ArenaPlayer("a", score=8, last_opponent="b"),
        ArenaPlayer("b", score=7, last_opponent="a"),
        ArenaPlayer("c", score=6),
        ArenaPlayer("d", score=0),
    ]
    pairs = {frozenset(p) for p in arena_pairs(waiting)}
    assert pairs == {frozenset("ac"), frozenset("bd")}


def test_arena_leaves_two_who_just_met_waiting_unless_allowed():
    waiting = [ArenaPlayer("a", last_opponent="b"), ArenaPlayer("b", last_opponent="a")]
    assert arena_pairs(waiting) == []
    assert len(arena_pairs(waiting, allow_rematch=True)) == 1


def test_arena_gives_blue_to_the_player_with_fewer_blues():
    waiting = [ArenaPlayer("a", score=4, balance=1), ArenaPlayer("b", score=2, balance=-1)]
    assert arena_pairs(waiting) == [("b", "a")]


def test_when_the_dutch_rules_find_no_pairing_the_fallback_repeats_a_game():
    a = SwissPlayer("a", score=2, colours=["B"], opponents={"b"})
    b = SwissPlayer("b", score=0, colours=["R"], opponents={"a"})
    assert pairing._dutch([a, b], 2) is None  # the library never repeats a game
    assert swiss_round([a, b]).pairs == (("b", "a"),)  # colours alternate


def test_round_two_follows_the_dutch_score_groups():
    # Round one: 1 beat 3, 2 beat 4 (seeds 1 > 2 > 3 > 4); the winners meet, then the losers.
    p = {n: SwissPlayer(n, seed=10 - n) for n in (1, 2, 3, 4)}
    for winner, loser, colours in ((1, 3, "BR"), (4, 2, "BR")):
        p[winner].opponents.add(loser)
        p[loser].opponents.add(winner)
        p[winner].colours.append(colours[0])
        p[loser].colours.append(colours[1])
    p[1].score = p[2].score = 2
    result = swiss_round(list(p.values()))
    assert {frozenset(x) for x in result.pairs} == {frozenset({1, 2}), frozenset({3, 4})}
