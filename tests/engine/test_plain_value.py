"""The endgame suite's brute-force checker agrees with the solver and the plain alpha-beta.

``tests/bench/plain_value.c`` is the independent method that checks the solver's values on
5 x 5 endgames (too slow for a test there); here it is checked itself on small boards.
"""

from __future__ import annotations

import random
import shutil

import pytest

from dotsboxes.engine import solver
from dotsboxes.rules import Board
from tests.bench.endgames import brute_force, build_plain_value, plain_value

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")


def random_position(width: int, height: int, undrawn: int, rng: random.Random) -> Board:
    board = Board(width, height)
    while len(board.legal_moves) > undrawn:
        board.play(rng.choice(board.legal_moves))
    return board


@pytest.fixture(scope="module")
def exe(tmp_path_factory):
    return build_plain_value(tmp_path_factory.mktemp("plain"))


@pytest.mark.parametrize(("width", "height", "undrawn"), [(2, 2, 8), (3, 3, 14), (4, 3, 16)])
def test_brute_force_equals_the_solver_and_the_plain_alpha_beta(exe, width, height, undrawn):
    rng = random.Random(f"plain:{width}x{height}")
    values = set()
    for _ in range(6):
        board = random_position(width, height, undrawn, rng)
        by_force = brute_force(exe, board)
        n = board.unclaimed
        assert by_force == plain_value(board, -n, n, {}, float("inf")), board.key()
        assert by_force == solver.solve(board).value, board.key()
        values.add(by_force)
    assert len(values) > 1  # the positions differ in value: the check can tell them apart


def test_brute_force_counts_a_box_claimed_and_the_extra_move(exe):
    # 1 x 1 board, three sides drawn: the mover takes the box.  Two sides: whoever
    # draws the third gives it away.
    board = Board(1, 1)
    for edge in board.legal_moves[:3]:
        board.play(edge)
    assert brute_force(exe, board) == 1
    board = Board(1, 1)
    for edge in board.legal_moves[:2]:
        board.play(edge)
    assert brute_force(exe, board) == -1
