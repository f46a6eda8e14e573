"""A refused record says why in the reader's language: every kind the rules core
raises has its sentence (games/record_errors.py)."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from dotsboxes.games import errors, record_import
from dotsboxes.games.record_errors import MESSAGES
from dotsboxes.games.seats import Actor
from dotsboxes.rules import InvalidRecordError, parse_record

ALICE = Actor(token="alice-token")
SIZE = "Size: 2 x 2 boxes\n\n"
BAD = {
    "empty": "   ",
    "header": "Size: 2 x 2 boxes\nno colon here\n",
    "no_size": "Blue: Ada\n",
    "bad_size": "Size: 12 x 2 boxes\n",
    "size_format": "Size: big\n",
    "size_contradiction": "Size: 2 x 2 boxes (5 x 5 dots)\n",
    "turn_expected": SIZE + "1. a1-b1 b1-b2",
    "turn_numbered": SIZE + "1. a1-b1 3. a2-b2",
    "turn_empty": SIZE + "1. 2. a1-b1",
    "turn_goes_on": SIZE + "1. a1-b1 2. a1-a2 3. b1-b2 4. a2-b2 5. b2-c2",
    "turn_passed": SIZE + "1. a1-b1, a2-b2",
    "edge_drawn": SIZE + "1. a1-b1 2. b1-a1",
    "edge_invalid": SIZE + "1. a1-c1",
}


@pytest.mark.parametrize("code", sorted(BAD))
def test_each_kind_of_bad_record_has_its_code_and_a_sentence(code):
    with pytest.raises(InvalidRecordError) as caught:
        parse_record(BAD[code])
    assert caught.value.code == code
    assert code in MESSAGES


@pytest.mark.django_db
@pytest.mark.parametrize("code", sorted(BAD))
def test_a_refused_import_reads_in_chinese_with_no_english_left(code):
    with translation.override("zh-hans"), pytest.raises(errors.BadRecordError) as caught:
        record_import.game_import(text=BAD[code], actor=ALICE)
    # Edge names, numbers and the record's own text stay as they are; no English words.
    said = str(caught.value)
    for quoted in re.findall(r"“[^”]*”", said):
        said = said.replace(quoted, "")
    words = re.findall(r"[A-Za-z]{3,}", re.sub(r"\b[a-j]\d+-[a-j]\d+\b", "", said))
    assert words in ([], ["Size"], ["Position"]), said
    assert re.search(r"[\u4e00-\u9fff]", said), said


@pytest.mark.django_db
def test_in_english_a_refused_import_still_names_the_turn_and_the_edge():
    with pytest.raises(errors.BadRecordError) as caught:
        record_import.game_import(text=BAD["edge_drawn"], actor=ALICE)
    assert str(caught.value) == "Turn 2, edge b1-a1: that edge is already drawn."
    assert (caught.value.turn, caught.value.edge) == (2, "b1-a1")
