"""The shipped puzzle set, re-proved: a random sample re-solved by the solver.

``tests/bench/puzzles.py`` re-solves all of them and reports the time.
"""

from __future__ import annotations

import datetime
import os
import random

import pytest

from dotsboxes.engine import puzzles as engine
from dotsboxes.engine.solver import Table, close_moves, move_values
from dotsboxes.puzzles import build
from dotsboxes.rules import Board, Edge

SAMPLE = 50
#: The sample changes every day (the same in every xdist worker, and named in the
#: test's id, so a failure can be replayed with PUZZLE_SAMPLE_SEED=<seed>).
SEED = int(os.environ.get("PUZZLE_SAMPLE_SEED", datetime.date.today().toordinal()))


def reprove(rec: dict, table: Table) -> None:
    """Assert every player step's answer is still the unique best family, all else -2 boxes."""
    board = Board(rec["width"], rec["height"])
    for edge in rec["moves"]:
        board.push(Edge.parse(edge))
    assert build.position_key(board) == rec["position_key"]
    wrong = iter(rec["wrong"])
    for step in rec["line"]:
        if step["player"]:
            solution, close = close_moves(board, boxes=engine.MIN_LOSS, table=table)
            assert close == (), rec["position_key"]
            assert sorted(map(str, solution.best)) == sorted(step["accepted"])
            assert solution.value == step["value"]
            assert engine.one_family(board, solution.best)
            refuted = next(wrong)
            assert set(refuted) == {str(e) for e in board.legal_moves} - set(step["accepted"])
            assert all(w["lost"] >= engine.MIN_LOSS for w in refuted.values())
        board.push(Edge.parse(step["edge"]))


def sample(records: list[dict], n: int, seed: int) -> list[dict]:
    return random.Random(seed).sample(records, min(n, len(records)))


@pytest.mark.parametrize("seed", [SEED])
def test_a_random_sample_of_the_shipped_puzzles_is_still_proved(seed):
    records = build.read()
    assert len(records) >= 500
    for rec in sample(records, SAMPLE, seed):
        reprove(rec, Table())  # a fresh table: nothing carried over from the build


def reprove_exact(rec: dict) -> None:
    """Assert the same from every legal move's exact value (``move_values``).

    A second road to the proof, not close_moves' null-window tests; it also
    checks the boxes each wrong move is said to lose and that every reply
    played for the opponent is a best move.
    """
    board = Board(rec["width"], rec["height"])
    for edge in rec["moves"]:
        board.push(Edge.parse(edge))
    wrong = iter(rec["wrong"])
    for step in rec["line"]:
        values = {str(e): v for e, v in move_values(board).items()}
        best = max(values.values())
        if step["player"]:
            assert {e for e, v in values.items() if v == best} == set(step["accepted"])
            assert best == step["value"]
            lost = {e: w["lost"] for e, w in next(wrong).items()}
            assert lost == {e: (best - v) // 2 for e, v in values.items() if v != best}
        else:
            assert values[step["edge"]] == best, rec["position_key"]
        board.push(Edge.parse(step["edge"]))


@pytest.mark.parametrize("seed", [SEED])
def test_the_sample_agrees_with_every_moves_exact_value_and_the_costs_shown_are_exact(seed):
    for rec in sample(build.read(), SAMPLE, seed):
        reprove_exact(rec)


def test_the_shipped_set_has_every_theme_and_sizes_3x3_to_5x5_mostly_5x5():
    records = build.read()
    themes = {t for r in records for t in r["themes"]}
    assert themes == set(engine.THEMES)
    sizes = [(r["width"], r["height"]) for r in records]
    assert set(sizes) == {(3, 3), (4, 4), (5, 5)}
    assert sizes.count((5, 5)) > len(sizes) / 2
    assert len({r["position_key"] for r in records}) == len(records)


def test_a_step_with_several_right_moves_is_always_the_last_of_its_puzzle():
    # The replies stored follow the first right move only: after a twin they would not fit.
    for rec in build.read():
        player_steps = [s for s in rec["line"] if s["player"]]
        assert all(len(s["accepted"]) == 1 for s in player_steps[:-1]), rec["position_key"]


def test_the_seed_build_is_reproducible_and_gives_the_shipped_records():
    # The first 4 x 4 seeds again, from nothing: the same records as the shipped file's.
    rebuilt = build.seed_set({(4, 4): 6})
    shipped = [r for r in build.read() if (r["width"], r["height"]) == (4, 4)][:6]
    assert rebuilt == shipped
