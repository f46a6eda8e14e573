"""Sizes read with ×, and result letters in the reader's language (issue 23: English left on
Chinese pages, and ``2x2`` beside ``2 × 2``)."""

# ruff: noqa: RUF001, RUF002 - the multiplication sign, and Chinese full-width punctuation.

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from dotsboxes.games.wording import size_text
from dotsboxes.tournaments.standings import Row

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [EN, ZH])
def test_the_analysis_boards_sizes_read_with_the_multiplication_sign(headers):
    html = Client().get("/analysis/", **headers).content.decode()
    labels = re.findall(r'<option value="(\d+x\d+)"[^>]*>([^<]*)</option>', html)
    assert ("2x2", "2 × 2") in labels and ("4x3", "4 × 3") in labels
    assert all("x" not in label for _value, label in labels), labels


def test_a_boards_size_reads_with_the_multiplication_sign_in_both_languages():
    with translation.override("en"):
        assert size_text(3, 3) == "3 × 3 boxes (4 × 4 dots)"
    with translation.override("zh-hans"):
        assert size_text(3, 3) == "3 × 3 格（4 × 4 点）"


def test_tournament_results_are_letters_of_the_readers_language():
    row = Row(rank=1, entry=None, score=3, played=4, results="WDL+")
    with translation.override("en"):
        assert row.results_shown == "WDL+"
    with translation.override("zh-hans"):
        assert row.results_shown == "胜和负+"
