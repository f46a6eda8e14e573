"""The guide's own doctests (the pure modules), and the plain words for the analysis."""

from __future__ import annotations

import doctest

import pytest

from dotsboxes.games import explain
from dotsboxes.games.explain import position_facts
from dotsboxes.guide import positions
from dotsboxes.guide.studies import BY_SLUG


@pytest.mark.parametrize("module", [positions, explain])
def test_doctests_pass(module):
    assert doctest.testmod(module).failed == 0


def test_facts_name_the_pieces_in_words():
    facts = dict(position_facts(BY_SLUG["give-the-smallest"].board))
    assert facts == {
        "Pieces": "a single box, a chain of 3 and a chain of 4",
        "Long chains": "2 (loops: 0)",
        "Safe edges left": "0",
    }


def test_a_loop_opened_at_both_ends_is_called_so():
    facts = dict(position_facts(BY_SLUG["is-control-worth-it"].board))
    assert "a chain of 4 opened at both ends" in facts["Pieces"]
    assert facts["Long chains"] == "1 (loops: 1)"


def test_the_study_answer_shows_the_facts(client, db):
    html = client.get("/learn/studies/loop-before-chain/").content.decode()
    assert "a chain of 3 and a loop of 4" in html


def test_edge_names_in_texts_stay_on_one_line_and_text_is_escaped():
    from dotsboxes.guide.templatetags.guide import edges

    html = edges("Draw a2-a3 <b>now</b>, not j9-j10.")
    assert '<span class="edge-name">a2-a3</span>' in html
    assert '<span class="edge-name">j9-j10</span>' in html
    assert "&lt;b&gt;" in html


def test_before_anyone_controls_the_facts_say_who_must_open_the_first_long_chain():
    from dotsboxes.engine.analysis import analyse
    from dotsboxes.rules import Board

    # Three long chains side by side (3 x 3, every vertical inside drawn), safe edges left.
    board = Board(3, 3)
    for edge in ("b1-b2", "c1-c2", "b2-b3", "c2-c3", "b3-b4", "c3-c4"):
        board.play(edge)
    a = analyse(board)
    assert a.controller is None and a.long_chains
    facts = dict(position_facts(board, control=True))
    opener = "Red" if a.favoured.name == "BLUE" else "Blue"
    assert facts["Must open the first long chain"] == (
        f"{opener}, if the number of long chains stays as it is"
    )
    assert "Control" not in facts
