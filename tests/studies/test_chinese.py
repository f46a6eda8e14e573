"""Study pages read in Chinese: the interface is translated (the authors' words are theirs)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from dotsboxes.studies import services
from tests.i18n.english import english_words

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9,en;q=0.5"}

TEXT = (
    "Dots and Boxes study\nTitle: 二乘二\n\n{小棋盘。}\n\nChapter: 第一步\n"
    "Size: 2 x 2 boxes (3 x 3 dots)\nQuestion: best a1-b1\nQuestion: blue 3\nQuestion: control\n\n"
    "{蓝方先走。} 1. a1-b1 ! {外边。} (1. a2-b2 {中间送一格。} [blue 1]) 2. b1-c1\n"
)


@pytest.mark.django_db
def test_study_pages_in_chinese_have_no_english_left():
    owner = get_user_model().objects.create_user("李老师", password="pw-very-secret-1")
    study = services.study_import(owner=owner, text=TEXT, visibility="public")
    reader, author = Client(), Client()
    author.force_login(owner)
    pages = [
        (reader, "/studies/"),
        (reader, f"/studies/{study.slug}/"),
        (reader, f"/studies/{study.slug}/1/"),
        (reader, f"/studies/{study.slug}/1/?at=1"),
        (reader, f"/reports/new/?study={study.slug}"),
        (author, "/studies/new"),
        (author, f"/studies/{study.slug}/edit"),
        (author, f"/studies/{study.slug}/1/edit?at=0"),
    ]
    for client, path in pages:
        response = client.get(path, **ZH)
        assert response.status_code == 200, path
        html = response.content.decode()
        # The chapter's text field holds the format's own keywords (Chapter:, Size:, …).
        html = html.split('<section class="study-text">')[0]
        # Key names stay as printed on keyboards; SVG is the image format's name.
        assert english_words(html, allowed={"Shift", "Home", "End", "SVG"}) == [], path
