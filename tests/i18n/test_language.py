"""Choosing the language: Accept-Language, the switcher, the cookie and the profile."""

# ruff: noqa: RUF001 - Chinese text uses full-width punctuation.

from __future__ import annotations

import re
import time

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import path
from django.utils import translation

from dotsboxes.accounts.models import Profile
from dotsboxes.games.models import Game
from tests.i18n.english import english_words

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9,en;q=0.5"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


def home(client: Client, **headers) -> str:
    response = client.get("/", **headers)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_a_first_visit_follows_the_browsers_accept_language():
    zh = Client().get("/", **ZH)
    assert zh["Content-Language"] == "zh-hans"
    assert (
        '<html lang="zh-hans">' in zh.content.decode() and "<h1>点格棋</h1>" in zh.content.decode()
    )
    en = Client().get("/", **EN)
    assert en["Content-Language"] == "en" and "<h1>Dots and Boxes</h1>" in en.content.decode()
    # A language we do not have falls back to English.
    assert "<h1>Dots and Boxes</h1>" in home(Client(), HTTP_ACCEPT_LANGUAGE="fr-FR,fr")


@pytest.mark.django_db
def test_the_switcher_is_a_plain_form_on_every_page_with_each_language_in_its_own_name():
    html = home(Client(), **EN)
    assert 'action="/language/"' in html and 'name="next" value="/"' in html
    assert 'value="zh-hans" lang="zh-hans"' in html and ">简体中文</button>" in html
    assert 'value="en" lang="en" class="link-button" aria-pressed="true">English' in html
    # Each language keeps its own name whatever the page's language is.
    zh = home(Client(), **ZH)
    assert 'lang="en" class="link-button">English</button>' in zh
    assert 'lang="zh-hans" class="link-button" aria-pressed="true">简体中文</button>' in zh


@pytest.mark.django_db
def test_switching_goes_back_to_the_page_and_the_cookie_keeps_the_choice():
    client = Client()
    response = client.post("/language/", {"language": "zh-hans", "next": "/learn/rules/"}, **EN)
    assert response.status_code == 302 and response["Location"] == "/learn/rules/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    # The browser still says English, the cookie wins.
    assert "<h1>点格棋规则</h1>" in client.get("/learn/rules/", **EN).content.decode()
    client.post("/language/", {"language": "en", "next": "/"}, **ZH)
    assert "<h1>Dots and Boxes</h1>" in home(client, **ZH)


@pytest.mark.django_db
def test_the_switcher_refuses_a_forged_post_and_an_outside_next():
    forged = Client(enforce_csrf_checks=True).post("/language/", {"language": "zh-hans"})
    assert forged.status_code == 403
    client = Client()
    response = client.post("/language/", {"language": "zh-hans", "next": "https://evil.example/"})
    assert response.status_code == 302 and response["Location"] == "/"
    # An unknown language changes nothing.
    client = Client()
    client.post("/language/", {"language": "xx", "next": "/"})
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    assert Client().get("/language/").status_code == 405


@pytest.mark.django_db
def test_a_signed_in_players_choice_is_saved_and_follows_them_to_another_browser():
    user = get_user_model().objects.create_user("mei", password="a long passphrase 42")
    laptop = Client()
    laptop.force_login(user)
    laptop.post("/language/", {"language": "zh-hans", "next": "/"}, **EN)
    assert Profile.objects.get(user=user).language == "zh-hans"

    phone = Client()  # a browser that says English and has no cookie
    assert "<h1>Dots and Boxes</h1>" in home(phone, **EN)
    response = phone.post(
        "/accounts/login/", {"username": "mei", "password": "a long passphrase 42"}, **EN
    )
    assert response.status_code == 302
    assert "<h1>点格棋</h1>" in home(phone, **EN)

    # Signed out, the browser's own language applies again.
    phone.post("/accounts/logout/", **EN)
    assert "<h1>Dots and Boxes</h1>" in home(phone, **EN)


@pytest.mark.django_db
def test_a_player_who_never_chose_gets_the_browsers_language_when_signed_in():
    user = get_user_model().objects.create_user("lee", password="a long passphrase 42")
    client = Client()
    client.force_login(user)
    assert "<h1>点格棋</h1>" in home(client, **ZH)
    assert not Profile.objects.filter(user=user).exists()


PAGES = [
    "/",
    "/play/",
    "/play/import/",
    "/play/mine/",
    "/rooms/",
    "/learn/",
    "/learn/rules/",
    "/learn/strategy/",
    "/learn/studies/",
    "/learn/studies/all-but-two/",
    "/learn/practice/",
    "/learn/practice/smallest-first/",
    "/learn/practice/draw-a-box/",
    "/learn/practice/replay-the-last-safe-edge/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/ratings/",
]


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGES)
def test_pages_in_chinese_have_no_english_left(path):
    response = Client().get(path, **ZH)
    assert response.status_code == 200
    assert english_words(response.content.decode()) == []


@pytest.mark.django_db
def test_a_finished_game_against_the_computer_reads_in_chinese_but_its_record_stays_english():
    client = Client()
    client.post(
        "/play/", {"mode": "computer", "size": "2x2", "side": "blue", "level": "beginner"}, **ZH
    )
    game = Game.objects.get()
    client.post(f"/play/{game.public_id}/resign", {"version": game.version}, **ZH)
    html = client.get(game.get_absolute_url(), **ZH).content.decode()
    assert "你（蓝方）认输，电脑（入门，红方）获胜（比分 0 比 0）。" in html
    assert english_words(html) == []
    record = client.get(f"/play/{game.public_id}/record.txt", **ZH).content.decode()
    assert "Dots and Boxes" in record and "Result: You (Blue) resigned" in record
    assert "蓝" not in record


def test_plurals_and_numbers_go_through_the_catalogue():
    from dotsboxes.games.history import status_sentence
    from dotsboxes.games.wording import boxes_text
    from dotsboxes.rules import Board

    board = Board(1, 1)
    for edge in ("a1-b1", "a2-b2", "a1-a2", "b1-b2"):
        board.play(edge)
    with translation.override("zh-hans"):
        assert boxes_text(1) == "1 格" and boxes_text(3) == "3 格"
        assert status_sentence(board) == "红方画 b1-b2，占得 1 格；对局结束：红方以 1 比 0 获胜。"
    with translation.override("en"):
        assert boxes_text(1) == "1 box" and boxes_text(3) == "3 boxes"


def _settled(client: Client, url: str, timeout: float = 60.0) -> str:
    """The analysis board once its values are in (as its refresh would fetch it)."""
    deadline = time.monotonic() + timeout
    while True:
        html = client.get(url, **ZH).content.decode()
        if 'data-state="final"' in html:
            return html
        assert time.monotonic() < deadline, "the values did not come in time"
        time.sleep(0.2)


@pytest.mark.django_db(transaction=True)
def test_the_analysis_board_reads_in_chinese_values_facts_and_edge_labels_included():
    # The side to move, the facts about the position (the engine's summary is English)
    # and each free edge's spoken value were English in a Chinese page.
    html = _settled(Client(), "/analysis/?size=2x2&line=a1-b1,a2-b2,b1-c1")
    assert english_words(html) == []
    assert "<dt>棋块</dt>" in html and "红方的值" in html and "改为轮到蓝方走" in html
    assert re.search(r'aria-label="画 [a-c]\d-[a-c]\d，(最佳|输 \d 格)，精确，值 [+-]\d+"', html)
    assert "分析棋盘，2 × 2 格" in html  # the board's own title, read by screen readers
    # "Open" a position key is a verb, not a report's status (未处理).
    assert ">打开</button>" in html and "未处理" not in html


@pytest.mark.django_db(transaction=True)
def test_a_game_against_the_computer_has_its_analysis_in_chinese():
    from dotsboxes.analysis.models import GameAnalysis
    from tests.gamefactory import played_game

    game = played_game(
        width=2,
        height=2,
        seed=4,
        mode=Game.Mode.COMPUTER,
        computer_side="red",
        computer_level="casual",
        blue_name="You",
        red_name="Computer (casual)",
    )
    client = Client()
    url = f"/analysis/game/{game.public_id}/"
    client.post(f"/analysis/game/{game.public_id}/request", {"next": url}, **ZH)
    deadline = time.monotonic() + 60
    while not GameAnalysis.objects.filter(game=game, status=GameAnalysis.Status.DONE).exists():
        assert time.monotonic() < deadline, "the analysis did not finish in time"
        time.sleep(0.1)
    html = client.get(url, **ZH).content.decode()
    assert '<th scope="row">你</th>' in html and '<th scope="row">电脑（休闲）</th>' in html
    assert english_words(html) == []
    # A marked edge's note is one Chinese phrase: full-width brackets and comma.
    assert re.findall(r"欠准 （\d+ 格(?:，估计)?）", html)
    assert not re.search(r"\(\d+ 格", html) and "格, " not in html
    # Learning from the game: an edge it never had is refused in the reader's language.
    missing = client.get(f"/learn/from-game/{game.public_id}/99/", **ZH)
    assert missing.status_code == 404 and "这局棋里没有这条边。" in missing.content.decode()


@pytest.mark.django_db
def test_form_labels_end_with_a_full_width_colon_in_chinese():
    # Django's own zh-Hans catalogue keeps ":" after a form label; Chinese writes a full-width one.
    lobby = Client().get("/rooms/", **ZH).content.decode()
    assert "你的显示名：</label>" in lobby and "你的显示名:</label>" not in lobby
    assert "Your display name:</label>" in Client().get("/rooms/", **EN).content.decode()


@pytest.mark.django_db
def test_a_refused_unreadable_request_is_in_the_readers_language_not_the_last_ones():
    # The refusal comes before LocaleMiddleware: it spoke whatever language the
    # thread's previous request had.
    client = Client()
    assert "<h1>点格棋</h1>" in home(client, **ZH)  # the thread now speaks Chinese
    response = client.post("/rooms/new", {"name": "a\x00b"}, **EN)
    assert response.status_code == 400
    assert response.content.decode() == "The form contains a character that is not allowed (NUL)."
    chinese = Client().post("/rooms/new", {"name": "a\x00b"}, **ZH).content.decode()
    assert "NUL" in chinese and english_words(f"<p>{chinese.replace('NUL', '')}</p>") == []


def _fails(request):
    raise RuntimeError("a view that fails")


urlpatterns = [path("fails/", _fails)]


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=__name__)
def test_a_server_error_page_is_in_the_readers_language():
    # Django's own 500 page is a bare English "Server Error (500)".
    client = Client(raise_request_exception=False)
    zh = client.get("/fails/", **ZH)
    assert zh.status_code == 500 and "<h1>出错了</h1>" in zh.content.decode()
    assert english_words(zh.content.decode()) == []
    en = Client(raise_request_exception=False).get("/fails/", **EN)
    assert "<h1>Something went wrong</h1>" in en.content.decode()
