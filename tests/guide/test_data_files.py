"""The guide's studies and exercises are data files, each text in English and Chinese.

The texts left the code (and so the gettext catalogue's extraction) for
``dotsboxes/guide/data/``; these tests keep the translations from getting lost:
every text has its Chinese, which names the same edges and scores, and the pages
read in Chinese show it (docs/decisions/0303-guide-content-as-data.md).
"""

# ruff: noqa: RUF001, RUF003 - the texts use real typography (en dash in scores).

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils import translation

from dotsboxes.guide import exercises, studies
from dotsboxes.guide.texts import Text, local

# Edge names and scores ("b2-b3", "5–4"): a translation must say the same ones.
FACTS = re.compile(r"\b[a-j](?:10|[1-9])-[a-j](?:10|[1-9])\b|\b\d+–\d+\b")
HAN = re.compile(r"[\u4e00-\u9fff]")


def texts(item) -> list[Text]:
    if isinstance(item, exercises.Exercise):
        return [item.title, item.prompt, item.right, item.wrong]
    return [item.title, item.level, item.question, item.answer, *item.reasoning]


@pytest.mark.parametrize("item", studies.STUDIES + exercises.EXERCISES, ids=lambda item: item.slug)
def test_every_text_has_its_chinese_naming_the_same_edges_and_scores(item):
    for text in texts(item):
        assert isinstance(text, Text)
        chinese = text.translations.get("zh-hans", "")
        assert chinese.strip(), text
        assert HAN.search(chinese) or not re.search(r"[A-Za-z]{3}", text), text
        assert sorted(FACTS.findall(chinese)) == sorted(FACTS.findall(text)), text


def test_a_text_reads_in_the_active_language_and_falls_back_to_english():
    text = studies.STUDIES[0].title
    with translation.override("zh-hans"):
        assert local(text) == text.translations["zh-hans"] != text
    with translation.override("en"):
        assert local(text) == str(text)
    with translation.override("fr"):  # no French in the file: the English text
        assert local(text) == str(text)


@pytest.mark.parametrize("study", studies.STUDIES, ids=lambda s: s.slug)
def test_a_study_page_in_chinese_shows_the_data_files_chinese(client, study):
    html = client.get(
        reverse("guide:study", args=[study.slug]), {"answer": "1"}, HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).content.decode()
    page = unescape(html)
    for text in texts(study):
        shown = text.translations["zh-hans"]
        # The page marks edge names up; compare the words between them.
        for piece in FACTS.split(shown):
            assert piece.strip(" ，。：；") in page, (study.slug, piece)
    assert study.reasoning[0] not in page  # no English paragraph left


@pytest.mark.django_db
def test_the_studies_list_and_the_export_read_in_chinese(client):
    listing = client.get(reverse("guide:studies"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    export = client.get("/learn/studies/as-text", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    for study in studies.STUDIES:
        assert study.title.translations["zh-hans"] in listing
        assert study.title.translations["zh-hans"] in export
        assert study.question.translations["zh-hans"] in export


@pytest.mark.django_db
@pytest.mark.parametrize(
    "exercise", [e for e in exercises.EXERCISES if e.kind == "edge"], ids=lambda e: e.slug
)
def test_an_exercise_reads_in_chinese_question_and_explanation_from_the_data_file(client, exercise):
    url = reverse("guide:exercise", args=[exercise.slug])
    zh = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
    page = unescape(client.get(url, **zh).content.decode())
    assert exercise.title.translations["zh-hans"] in page
    for piece in FACTS.split(exercise.prompt.translations["zh-hans"]):
        assert piece.strip(" ，。：；") in page, piece
    assert exercise.prompt not in page
    wrong = next(str(m) for m in exercise.board.legal_moves if str(m) not in exercise.best)
    verdict = unescape(client.post(url, {"edge": wrong}, follow=True, **zh).content.decode())
    for piece in FACTS.split(exercise.wrong.translations["zh-hans"]):
        assert piece.strip(" ，。：；") in verdict, piece
