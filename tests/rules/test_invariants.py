"""Invariants over random boards, random legal and illegal moves, and random playouts.

The state machine keeps its own model of the game, computed from first principles
(the set of drawn dot pairs, which boxes have all four sides, who drew the
fourth), and checks the board against it after every step.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from dotsboxes.rules import (
    Board,
    Edge,
    GameRecord,
    IllegalMoveError,
    InvalidEdgeError,
    Player,
    RulesError,
    format_record,
    parse_record,
)

COLUMNS = "abcdefghij"


def dot(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{y + 1}"


def box_sides(x: int, y: int) -> set[frozenset[str]]:
    """The four sides of box (x, y) as unordered pairs of dot names."""
    a, b, c, d = dot(x, y), dot(x + 1, y), dot(x, y + 1), dot(x + 1, y + 1)
    return {frozenset(p) for p in ((a, b), (c, d), (a, c), (b, d))}


class ReferenceGame:
    """A slow, obviously right model: no indices, no counters, no undo tricks."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.drawn: list[frozenset[str]] = []
        self.owners: dict[tuple[int, int], Player] = {}
        self.turn = Player.BLUE

    def all_edges(self) -> set[frozenset[str]]:
        return {
            side for x in range(self.width) for y in range(self.height) for side in box_sides(x, y)
        }

    def draw(self, edge: Edge) -> list[tuple[int, int]]:
        pair = frozenset(str(edge).split("-"))
        assert pair not in self.drawn
        self.drawn.append(pair)
        drawn = set(self.drawn)
        claimed = [
            (x, y)
            for y in range(self.height)
            for x in range(self.width)
            if (x, y) not in self.owners and box_sides(x, y) <= drawn
        ]
        for box in claimed:
            self.owners[box] = self.turn
        if not claimed:
            self.turn = Player.BLUE if self.turn is Player.RED else Player.RED
        return claimed

    def scores(self) -> tuple[int, int]:
        values = list(self.owners.values())
        return values.count(Player.BLUE), values.count(Player.RED)


def snapshot(board: Board) -> tuple:
    return (
        board.key(),
        board.turn,
        board.scores,
        tuple(board.owner(b) for b in range(board.num_boxes)),
        tuple(board.move_stack),
        tuple(board.legal_moves),
        board.is_over(),
    )


class BoardMachine(RuleBasedStateMachine):
    @initialize(width=st.integers(1, 9), height=st.integers(1, 9))
    def setup(self, width: int, height: int) -> None:
        self.board = Board(width, height)
        self.history: list[tuple] = [snapshot(self.board)]
        self.reference = ReferenceGame(width, height)

    def reset_reference(self) -> None:
        self.reference = ReferenceGame(self.board.width, self.board.height)
        for edge in self.board.move_stack:
            self.reference.draw(edge)

    @precondition(lambda self: not self.board.is_over())
    @rule(data=st.data())
    def play_a_legal_edge(self, data: st.DataObject) -> None:
        edge = data.draw(st.sampled_from(self.board.legal_moves))
        mover, before = self.board.turn, self.board.scores
        text = data.draw(st.sampled_from([str(edge), "-".join(reversed(str(edge).split("-")))]))
        claimed = self.board.play(text.upper() if data.draw(st.booleans()) else text)
        expected = self.reference.draw(edge)
        assert sorted(claimed) == sorted(y * self.board.width + x for x, y in expected)
        gained = sum(self.board.scores) - sum(before)
        assert gained == len(claimed) <= 2
        # The turn passes exactly when no box was claimed.
        assert (self.board.turn is mover) == bool(claimed)
        self.history.append(snapshot(self.board))

    @precondition(lambda self: self.board.move_stack)
    @rule()
    def replay_a_drawn_edge(self) -> None:
        before = snapshot(self.board)
        edge = random.Random(len(self.board.move_stack)).choice(self.board.move_stack)
        try:
            self.board.play(edge)
        except IllegalMoveError as exc:
            assert str(edge) in str(exc) and self.board.key() in str(exc)
        else:
            raise AssertionError(f"{edge} was drawn twice")
        assert snapshot(self.board) == before

    @rule(x=st.integers(-1, 11), y=st.integers(-1, 11), horizontal=st.booleans())
    def play_an_edge_that_may_be_off_the_board(self, x: int, y: int, horizontal: bool) -> None:
        edge = Edge(x, y, horizontal)
        on_board = 0 <= x < self.board.width + (
            0 if horizontal else 1
        ) and 0 <= y < self.board.height + (1 if horizontal else 0)
        if on_board:
            return
        before = snapshot(self.board)
        try:
            self.board.play(edge)
        except InvalidEdgeError:
            pass
        else:
            raise AssertionError(f"{edge!r} is off a {self.board.size_text} board")
        assert snapshot(self.board) == before

    @rule(text=st.text(max_size=8))
    def play_garbage(self, text: str) -> None:
        before = snapshot(self.board)
        try:
            edge = Edge.parse(text)
        except InvalidEdgeError as exc:
            assert repr(text.strip()) in str(exc)
            with pytest.raises(InvalidEdgeError):
                self.board.play(text)
        else:
            # Hypothesis found real notation: play it only if it is a legal move.
            if edge in self.board.legal_moves:
                return
            with pytest.raises(RulesError):
                self.board.play(text)
        assert snapshot(self.board) == before

    @precondition(lambda self: self.board.move_stack)
    @rule()
    def pop(self) -> None:
        self.board.pop()
        self.history.pop()
        assert snapshot(self.board) == self.history[-1]
        self.reset_reference()

    @precondition(lambda self: not self.board.is_over())
    @rule(data=st.data())
    def push_then_pop_restores_the_position(self, data: st.DataObject) -> None:
        before = snapshot(self.board)
        self.board.push(data.draw(st.sampled_from(self.board.legal_moves)))
        self.board.pop()
        assert snapshot(self.board) == before

    @invariant()
    def matches_the_reference_model(self) -> None:
        board, ref = self.board, self.reference
        assert board.turn is ref.turn
        assert board.scores == ref.scores()
        for y in range(board.height):
            for x in range(board.width):
                assert board.owner((x, y)) is ref.owners.get((x, y))
        assert {frozenset(str(e).split("-")) for e in board.drawn} == set(ref.drawn)

    @invariant()
    def scores_and_unclaimed_boxes_add_up_to_the_boxes(self) -> None:
        assert sum(self.board.scores) + self.board.unclaimed == self.board.num_boxes

    @invariant()
    def the_game_ends_exactly_when_every_edge_is_drawn(self) -> None:
        every = len(self.board.drawn) == len(self.board.edges)
        assert self.board.is_over() == every == (self.board.outcome() is not None)
        if every:
            assert self.board.unclaimed == 0

    @invariant()
    def the_key_and_the_record_rebuild_the_position(self) -> None:
        assert Board.from_key(self.board.key()).key() == self.board.key()
        record = GameRecord.from_board(self.board)
        assert parse_record(format_record(record)) == record


TestBoardMachine = BoardMachine.TestCase
TestBoardMachine.settings = settings(
    max_examples=150,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.parametrize("height", range(1, 10))
@pytest.mark.parametrize("width", range(1, 10))
def test_random_playouts_on_every_size_end_with_every_box_claimed(width, height):
    rng = random.Random(width * 100 + height)
    for _ in range(3):
        board, reference = Board(width, height), ReferenceGame(width, height)
        while not board.is_over():
            assert board.outcome() is None
            edge = rng.choice(board.legal_moves)
            mover = board.turn
            claimed = board.push(edge)
            assert len(claimed) == len(reference.draw(edge))
            assert (board.turn is mover) == bool(claimed) == (reference.turn is mover)
        outcome = board.outcome()
        assert len(board.move_stack) == len(board.edges) == len(reference.all_edges())
        assert outcome.blue + outcome.red == width * height
        assert (outcome.blue, outcome.red) == reference.scores()
        if (width * height) % 2:
            assert not outcome.is_tie
        while board.move_stack:
            board.pop()
        assert snapshot(board) == snapshot(Board(width, height))
