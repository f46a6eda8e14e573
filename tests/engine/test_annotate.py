"""Game annotation on constructed games whose answers are worked out by hand."""

from __future__ import annotations

import pytest

from dotsboxes.engine import solver
from dotsboxes.engine.annotate import annotate, is_double_deal, mark_for
from dotsboxes.rules import Board, Edge


def chain_start(n: int) -> str:
    """An n x 1 board with its top and bottom rows drawn: one chain of n, Blue to open it."""
    board = Board(n, 1)
    cols = "abcdefghij"
    for i in range(n):
        for row in (1, 2):
            board.play(f"{cols[i]}{row}-{cols[i + 1]}{row}")
    # 2n edges drawn: the turn passed 2n times, so Blue is to move again.
    assert board.turn.name == "BLUE"
    return board.key()


def by_ply(result: dict) -> dict[int, dict]:
    return {e["ply"]: e for e in result["edges"]}


@pytest.mark.parametrize(
    ("lost", "mark"),
    [(0, ""), (1, "inaccuracy"), (2, "mistake"), (3, "mistake"), (4, "blunder"), (9, "blunder")],
)
def test_marks_follow_the_boxes_lost(lost, mark):
    assert mark_for(lost) == mark


def test_a_one_box_game_has_no_marks_and_red_wins_by_one():
    # Every edge is forced to the same result: Red draws the fourth side.
    result = annotate(1, 1, ["a1-b1", "a2-b2", "a1-a2", "b1-b2"])
    entries = result["edges"]
    assert [e["value"] for e in entries] == [-1, 1, -1, 1]
    assert all(e["exact"] and e["lost"] == 0 and not e["mark"] for e in entries)
    assert [m["margin"] for m in result["margins"]] == [-1, -1, -1, -1, -1]
    assert entries[3]["best"] == ["b1-b2"]
    assert not any(e["control"] for e in entries)
    assert result["players"]["red"]["accuracy"] == 100


def test_refusing_an_open_chain_is_a_mistake_that_hands_over_control():
    # Blue opens the chain of 3 (forced: every edge gives it away).  Red should take
    # all three (+3); it draws the far end instead, and Blue takes all three.
    edges = ["a1-a2", "d1-d2", "b1-b2", "c1-c2"]
    result = annotate(3, 1, edges, start_key=chain_start(3))
    e = by_ply(result)
    assert (e[1]["value"], e[1]["played"], e[1]["lost"]) == (-3, -3, 0)
    assert (e[2]["side"], e[2]["value"], e[2]["played"], e[2]["lost"]) == ("red", 3, -3, 3)
    assert e[2]["mark"] == "mistake"
    assert e[2]["best"] == ["b1-b2"]  # take the open box (c1-c2 would offer all three)
    assert e[2]["controller"] == "red" and e[3]["controller"] == "blue"
    assert [x["control"] for x in result["edges"]] == [False, True, False, False]
    assert not e[2]["double_deal"]  # it leaves no two boxes for one edge
    assert [m["margin"] for m in result["margins"]] == [-3, -3, 3, 3, 3]
    red = result["players"]["red"]
    assert (red["edges"], red["lost"], red["accuracy"], red["control"]) == (1, 3, 0, 1)
    assert red["marks"] == {"blunder": 0, "mistake": 1, "inaccuracy": 0}
    assert result["players"]["blue"]["accuracy"] == 100


def test_giving_back_a_whole_chain_of_five_is_a_blunder():
    edges = ["a1-a2", "f1-f2", "b1-b2", "c1-c2", "d1-d2", "e1-e2"]
    result = annotate(5, 1, edges, start_key=chain_start(5))
    e = by_ply(result)
    assert (e[2]["value"], e[2]["played"], e[2]["lost"], e[2]["mark"]) == (5, -5, 5, "blunder")
    assert e[2]["control"]
    assert result["margins"][-1]["margin"] == 5


def test_a_double_dealing_move_is_marked_even_when_it_is_wrong():
    # Red takes the first box, then declines the last two with the double-dealing
    # move: with no other chain to come, that only gives Blue two boxes (-2 vs +2).
    edges = ["a1-a2", "b1-b2", "d1-d2", "c1-c2"]
    result = annotate(3, 1, edges, start_key=chain_start(3))
    e = by_ply(result)
    assert e[3]["double_deal"]
    assert (e[3]["value"], e[3]["played"], e[3]["lost"], e[3]["mark"]) == (2, -2, 2, "mistake")
    assert not any(x["double_deal"] for x in result["edges"] if x["ply"] != 3)


def test_double_dealing_needs_boxes_on_offer():
    board = Board(2, 1)
    for edge in ("a1-b1", "a2-b2", "b1-c1", "b2-c2"):
        board.play(edge)
    # A chain of two, unopened: drawing an end offers boxes, it declines none.
    assert not is_double_deal(board, Edge.parse("a1-a2"))
    board.play("a1-a2")
    assert is_double_deal(board, Edge.parse("c1-c2"))
    assert not is_double_deal(board, Edge.parse("b1-b2"))  # that one takes a box


def test_estimates_fill_what_the_solver_leaves_and_exact_values_are_proved():
    board, edges = Board(3, 2), []
    from dotsboxes.engine.players import choose

    while not board.is_over():
        level = "casual" if board.turn.name == "BLUE" else "club"
        edge = choose(board, level=level, seed=7, budget=0.05, hard_stop=False)
        board.play(edge)
        edges.append(str(edge))
    seen = []
    solver.clear_cache()
    result = annotate(
        3,
        2,
        edges,
        solve_nodes=100,
        reach_nodes=100,
        estimate_nodes=500,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert seen == [(i, len(edges)) for i in range(1, len(edges) + 1)]
    entries = result["edges"]
    assert len(entries) == len(edges)
    assert entries[-1]["exact"] and not entries[0]["exact"]
    assert all(e["best"] and isinstance(e["value"], int) for e in entries)
    replay = Board(3, 2)
    for e in entries:
        if e["exact"]:
            assert solver.solve(replay).value == e["value"], e
        replay.play(e["edge"])
    assert result["exact_from"] == next(e["ply"] - 1 for e in entries if e["exact"])


def test_positions_within_the_promised_reach_get_the_larger_solver_limit():
    """Every position with at most ``REACH`` undrawn edges gets ``reach_nodes``: with a
    limit too small for any but the last few positions, the reach still makes all exact."""
    from dotsboxes.engine import annotate as module
    from dotsboxes.engine.players import choose

    board, edges = Board(3, 2), []  # 17 edges: all within the reach of 36
    while not board.is_over():
        edge = choose(board, level="club", seed=11, budget=0.05, hard_stop=False)
        board.play(edge)
        edges.append(str(edge))
    assert len(edges) <= module.REACH
    solver.clear_cache()
    starved = annotate(3, 2, edges, solve_nodes=100, reach_nodes=100, estimate_nodes=500)
    solver.clear_cache()
    reached = annotate(3, 2, edges, solve_nodes=100, estimate_nodes=500)
    assert not starved["edges"][0]["exact"]
    assert all(e["exact"] for e in reached["edges"])
    assert reached["exact_from"] == 0


@pytest.mark.parametrize("core", ["python", "native"])
def test_the_solver_limits_follow_the_core_in_use(core):
    """Python keeps its measured limits; the native core gets the same CPU time at its
    node rate (players.SOLVER_RATES), so it reaches further into the game."""
    from dotsboxes.engine import _backend
    from dotsboxes.engine import annotate as module
    from dotsboxes.engine.players import SOLVER_RATES

    from .differential import backend

    if core == "native" and _backend.native is None:
        pytest.skip("the C extension was not built")
    with backend(core):
        result = annotate(1, 1, ["a1-b1", "a1-a2", "b1-b2", "a2-b2"])
    limits = module.BUDGETS[core]
    assert result["settings"]["backend"] == core
    assert result["settings"]["solve_nodes"] == limits.solve_nodes
    assert result["settings"]["reach_nodes"] == limits.reach_nodes
    assert result["settings"]["reach"] == limits.reach
    python = module.BUDGETS["python"]
    assert (python.solve_nodes, python.reach, python.reach_nodes) == (250_000, 36, 1_000_000)
    if core == "native":
        ratio = SOLVER_RATES["native"] / SOLVER_RATES["python"]
        assert limits.solve_nodes == int(python.solve_nodes * ratio)
        assert limits.reach_nodes == int(python.reach_nodes * ratio)
        assert limits.reach > python.reach
