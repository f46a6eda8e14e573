"""Game records: a header with the size, then numbered turns."""

from __future__ import annotations

import random

import pytest

from dotsboxes.rules import (
    Board,
    Edge,
    GameRecord,
    InvalidRecordError,
    RulesError,
    format_record,
    group_turns,
    parse_record,
)

TIED_2_BY_2 = """\
Dots and Boxes
Size: 2 x 2 boxes (3 x 3 dots)
Blue: Ada
Red: Computer (master)

1. b2-c2  2. b2-b3  3. a2-a3  4. a2-b2  5. b1-b2  6. a1-a2  7. b3-c3
8. c2-c3, a1-b1, c1-c2  9. b1-c1, a3-b3
"""


def random_board(width: int, height: int, seed: int, stop: int | None = None) -> Board:
    rng = random.Random(seed)
    board = Board(width, height)
    while not board.is_over() and (stop is None or len(board.move_stack) < stop):
        board.push(rng.choice(board.legal_moves))
    return board


def test_a_record_reads_its_header_and_turns():
    record = parse_record(TIED_2_BY_2)
    assert (record.width, record.height) == (2, 2)
    assert record.headers == {"Blue": "Ada", "Red": "Computer (master)"}
    assert len(record.turns) == 9
    assert [str(e) for e in record.turns[7]] == ["c2-c3", "a1-b1", "c1-c2"]
    assert record.board().outcome().is_tie


def test_format_of_a_parsed_record_gives_back_the_same_text():
    assert format_record(parse_record(TIED_2_BY_2)) == TIED_2_BY_2


@pytest.mark.parametrize(("width", "height", "seed"), [(1, 1, 0), (5, 5, 1), (9, 9, 2), (7, 3, 3)])
def test_parse_of_a_formatted_record_gives_back_the_same_record(width, height, seed):
    board = random_board(width, height, seed)
    record = GameRecord.from_board(board, {"Event": "Club night", "Blue": "Ada Lovelace"})
    text = format_record(record)
    assert parse_record(text) == record
    assert format_record(parse_record(text)) == text
    assert parse_record(text).board().key() == board.key()
    assert all(len(line) <= 78 for line in text.splitlines())


def test_an_unfinished_game_ending_mid_turn_round_trips():
    board = Board(1, 2)
    for text in ("a1-b1", "a1-a2", "b1-b2", "a2-b2"):  # Red claims and must move again
        board.play(text)
    record = GameRecord.from_board(board)
    assert format_record(record).endswith("1. a1-b1  2. a1-a2  3. b1-b2  4. a2-b2\n")
    assert parse_record(format_record(record)) == record


def test_the_header_states_the_size_in_boxes_and_in_dots():
    text = format_record(GameRecord(4, 3))
    assert text.splitlines()[:2] == ["Dots and Boxes", "Size: 4 x 3 boxes (5 x 4 dots)"]


def test_turns_group_the_edges_one_player_draws_before_play_passes():
    board = Board(1, 2)
    for text in ("a1-b1", "a1-a2", "b1-b2", "a2-b2", "a2-a3"):
        board.play(text)
    assert group_turns(board) == [
        [Edge.parse("a1-b1")],
        [Edge.parse("a1-a2")],
        [Edge.parse("b1-b2")],
        [Edge.parse("a2-b2"), Edge.parse("a2-a3")],
    ]


def test_parsing_is_lenient_about_spacing_case_and_a_missing_title():
    text = "size: 2 x 2 boxes\n\n1.B2-C2 2. b2 - b3\n3. a2-a3   4. A2-b2"
    record = parse_record(text)
    assert [str(e) for e in record.edges] == ["b2-c2", "b2-b3", "a2-a3", "a2-b2"]


def test_a_record_with_an_illegal_move_names_the_turn_and_the_edge():
    text = "Size: 2 x 2 boxes\n\n1. a1-b1  2. a2-b2  3. b1-a1"
    with pytest.raises(InvalidRecordError) as info:
        parse_record(text)
    assert (info.value.turn, info.value.edge) == (3, "b1-a1")
    assert "turn 3" in str(info.value) and "a1-b1 is already drawn" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_a_record_with_an_edge_off_the_board_names_the_turn_and_the_edge():
    with pytest.raises(InvalidRecordError) as info:
        parse_record("Size: 1 x 1 boxes\n\n1. a1-b1  2. b1-c1")
    assert (info.value.turn, info.value.edge) == (2, "b1-c1")
    assert "turn 2" in str(info.value) and "'b1-c1'" in str(info.value)


def test_a_record_that_moves_again_after_a_move_claiming_nothing_is_rejected():
    with pytest.raises(InvalidRecordError) as info:
        parse_record("Size: 2 x 2 boxes\n\n1. a1-b1, a2-b2")
    assert (info.value.turn, info.value.edge) == (1, "a2-b2")


def test_a_record_that_passes_play_after_a_claim_is_rejected():
    text = "Size: 1 x 2 boxes\n\n1. a1-b1  2. a1-a2  3. b1-b2  4. a2-b2  5. a2-a3"
    with pytest.raises(InvalidRecordError) as info:
        parse_record(text)
    assert info.value.turn == 4 and info.value.edge == "a2-b2"
    assert "same player moves again" in str(info.value)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("1. a1-b1", "no 'Size"),
        ("Size: 10 x 5 boxes\n\n1. a1-b1", "bad size"),
        ("Size: 5 x 5 boxes (5 x 5 dots)", "contradicts"),
        ("Size: five\n", "should read like"),
        ("Size: 2 x 2 boxes\nnot a header\n", "not 'Key: value'"),
        ("Size: 2 x 2 boxes\n\n2. a1-b1", "numbered 2"),
        ("Size: 2 x 2 boxes\n\n1. a1-b1 a2-b2", "expected turn number 2"),
        ("Size: 2 x 2 boxes\n\n1. a1-b1  2.", "turn 2 has no edge"),
        ("Size: 2 x 2 boxes\n\n1. zz", "turn 1"),
        ("Size: \uff12 x \uff12 boxes\n", "should read like"),
        ("Size: 2 x 2 boxes\n\n\uff11. a1-b1", "not 'Key: value'"),
    ],
)
def test_a_malformed_record_is_rejected_with_a_plain_message(text, fragment):
    with pytest.raises(InvalidRecordError) as info:
        parse_record(text)
    assert fragment in str(info.value)
    assert isinstance(info.value, RulesError)


@pytest.mark.parametrize(
    "headers", [{"Size": "1 x 1 boxes"}, {"Note": "two\nlines"}, {"A:B": "c"}, {"1. x": "y"}]
)
def test_a_header_that_could_not_be_read_back_is_refused_when_writing(headers):
    with pytest.raises(InvalidRecordError):
        format_record(GameRecord(2, 2, [], headers))


def test_an_empty_game_writes_and_reads_back():
    record = GameRecord(3, 2)
    assert parse_record(format_record(record)) == record
