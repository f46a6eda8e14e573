"""Puzzle finding and theme detection (dotsboxes.engine.puzzles) on constructed positions."""

from __future__ import annotations

from dotsboxes.engine import annotate, puzzles
from dotsboxes.engine.analysis import analyse
from dotsboxes.engine.solver import close_moves, move_values
from dotsboxes.rules import Board, Edge, Player


def _board(width: int, height: int, edges: list[str]) -> Board:
    board = Board(width, height)
    for edge in edges:
        board.play(edge)
    return board


def _rows(width: int, height: int) -> list[str]:
    """Every horizontal edge of the board: one long chain per row of boxes."""
    cols = "abcdefghij"
    return [
        f"{cols[x]}{y + 1}-{cols[x + 1]}{y + 1}" for y in range(height + 1) for x in range(width)
    ]


def test_two_four_chains_one_opened_and_two_boxes_taken_the_answer_declines_the_last_two():
    # Two 4-chains (the rows of a 4 x 2 board); Blue has opened the bottom one.
    board = _board(4, 2, [*_rows(4, 2), "a1-a2"])
    assert board.turn is Player.RED
    # Taking one box is the only good start, but then declining three (d1-d2) loses
    # only one box: the line would stop half way through Red's turn, so no puzzle.
    assert puzzles.find(board) is None
    board.play("b1-b2")
    board.play("c1-c2")
    puzzle = puzzles.find(board)
    assert puzzle is not None
    assert puzzle.line[0].edge == Edge.parse("e1-e2")
    assert puzzle.line[0].accepted == (Edge.parse("e1-e2"),)
    assert puzzle.themes[:2] == ["all-but-two", "double-dealing"]
    assert "take-all" not in puzzle.themes


def test_a_lone_opened_chain_is_taken_whole():
    board = _board(4, 1, [*_rows(4, 1), "a1-a2"])
    puzzle = puzzles.find(board)
    assert puzzle is not None
    assert puzzle.themes == ["take-all"]
    assert [str(s.edge) for s in puzzle.line] == ["b1-b2", "c1-c2", "d1-d2", "e1-e2"]


def test_hard_hearted_handout_opens_the_two_chain_in_its_middle():
    # Seed game 1 on 3 x 3 after 14 edges: a two-chain and a long chain are left.
    edges = puzzles.selfplay(3, 3, 1)[:14]
    board = _board(3, 3, [str(e) for e in edges])
    puzzle = puzzles.find(board)
    assert puzzle is not None
    answer = puzzle.line[0].edge
    assert answer == Edge.parse("c3-c4")
    # The answer touches two boxes with two sides each: the middle of a two-chain.
    assert [board.sides(b) for b in board.edge_boxes(answer)] == [2, 2]
    assert "hard-hearted-handout" in puzzle.themes


def test_every_other_move_of_a_puzzle_loses_at_least_two_boxes():
    board = _board(4, 2, [*_rows(4, 2), "a1-a2", "b1-b2", "c1-c2"])
    puzzle = puzzles.find(board)
    values = move_values(board)
    best = max(values.values())
    accepted = set(puzzle.line[0].accepted)
    for edge, value in values.items():
        if edge in accepted:
            assert value == best
        else:
            assert (best - value) // 2 >= puzzles.MIN_LOSS, edge


def test_an_empty_board_is_not_a_puzzle():
    assert puzzles.find(Board(2, 2)) is None
    solution, close = close_moves(Board(2, 2), boxes=2)
    # The 8 outer edges are best; the 4 inner ones lose one box: close, so no puzzle.
    assert len(solution.best) == 8
    assert sorted(map(str, close)) == ["a2-b2", "b1-b2", "b2-b3", "b2-c2"]


def test_symmetric_twins_are_one_family_and_different_ideas_are_not():
    board = Board(3, 3)
    assert puzzles.one_family(board, [Edge.parse("a1-b1"), Edge.parse("d3-d4")])
    assert not puzzles.one_family(board, [Edge.parse("a1-b1"), Edge.parse("b2-c2")])


def test_candidates_from_a_seed_game_are_reproducible_and_each_has_one_to_three_themes():
    edges = puzzles.selfplay(3, 3, 4)
    first = puzzles.candidates(3, 3, edges, max_undrawn=24)
    again = puzzles.candidates(3, 3, puzzles.selfplay(3, 3, 4), max_undrawn=24)
    assert first
    assert [(p, z.board.key(), z.themes) for p, z in first] == [
        (p, z.board.key(), z.themes) for p, z in again
    ]
    for _, puzzle in first:
        assert 1 <= len(puzzle.themes) <= 3
        assert set(puzzle.themes) <= set(puzzles.THEMES)


def _seed_position(width: int, height: int, seed: int, ply: int) -> Board:
    """A position of a seed game (the shipped set's source), rebuilt move by move."""
    return _board(width, height, [str(e) for e in puzzles.selfplay(width, height, seed)[:ply]])


def _after(board: Board, edge: Edge) -> Board:
    after = board.copy()
    after.push(edge)
    return after


def test_opening_a_loop_while_a_long_chain_waits_is_loop_before_chain():
    board = _seed_position(4, 4, 1, 27)
    puzzle = puzzles.find(board)
    answer = puzzle.line[0].edge
    parts = analyse(board).components
    opened = next(c for c in parts if answer in c.edges)
    assert opened.kind == "loop"
    assert any(c.kind == "chain" and c.is_long for c in parts)
    assert not analyse(board).safe_edges
    assert puzzle.themes == ["loop-before-chain"]


def test_declining_a_loop_leaves_two_double_crosses_all_but_four():
    board = _seed_position(4, 4, 2, 24)
    puzzle = puzzles.find(board)
    b = board.copy()
    dd = None
    for step in puzzle.line:
        if step.player and annotate.is_double_deal(b, step.edge):
            dd = (b.copy(), step.edge)
        b.push(step.edge)
    assert dd is not None
    after = _after(*dd)
    assert sum(1 for e in after.legal_moves if after.claims(e) == 2) == 2
    assert "all-but-four" in puzzle.themes and "all-but-two" not in puzzle.themes


def test_giving_a_box_away_while_safe_edges_are_left_is_a_sacrifice():
    board = _seed_position(3, 3, 4, 11)
    puzzle = puzzles.find(board)
    answer = puzzle.line[0].edge
    assert analyse(board).safe_edges  # a quiet move was there to be played
    assert not board.claims(answer)
    assert 3 in [_after(board, answer).sides(b) for b in board.edge_boxes(answer)]
    assert "sacrifice" in puzzle.themes
    # The sacrifice wins the long-chain fight: the player ends in control.
    assert "control" in puzzle.themes


def test_changing_the_number_of_long_chains_in_ones_favour_is_counting():
    board = _seed_position(3, 3, 8, 9)
    puzzle = puzzles.find(board)
    answer = puzzle.line[0].edge
    before, after = analyse(board), analyse(_after(board, answer))
    assert before.safe_edges
    assert after.long_chains != before.long_chains
    assert before.favoured is not board.turn and after.favoured is board.turn
    assert "counting" in puzzle.themes


def test_a_puzzle_never_has_more_than_three_themes_in_the_preferred_order():
    board = _seed_position(4, 4, 2, 24)
    themes = puzzles.find(board).themes
    assert len(themes) <= puzzles.MAX_THEMES
    assert themes == sorted(themes, key=puzzles.THEMES.index)


def test_with_nothing_safe_left_opening_the_single_box_before_the_three_chain_is_shortest_chain():
    # A 4 x 1 board with every edge drawn but six: a corner box on its own (a 1-chain)
    # and a 3-chain, nothing safe.  Opening the box gives one and gets three back;
    # opening the 3-chain gives three and gets one: 2 boxes worse.
    board = Board(4, 1)
    undrawn = {Edge.parse(e) for e in ("a1-b1", "a1-a2", "b1-c1", "c1-c2", "d1-d2", "e1-e2")}
    for edge in list(board.legal_moves):
        if edge not in undrawn:
            board.play(edge)
    parts = analyse(board).components
    assert sorted((c.kind, c.length) for c in parts) == [("chain", 1), ("chain", 3)]
    assert not analyse(board).safe_edges
    puzzle = puzzles.find(board)
    assert puzzle is not None
    # Either side of the single box is right: one family, the chain's two edges.
    assert set(puzzle.line[0].accepted) == {Edge.parse("a1-b1"), Edge.parse("a1-a2")}
    assert puzzle.themes == ["shortest-chain"]
    # Opening the longer chain instead is not the theme.
    wrong = puzzles.Step(True, Edge.parse("c1-c2"), (Edge.parse("c1-c2"),), 0)
    assert "shortest-chain" not in puzzles.detect_themes(board, [wrong])
