"""The site in Simplified Chinese, in real Chromium with Accept-Language: zh-CN.

Each page is checked for English left over, photographed at 1280 and 375 px
wide (test-artifacts/i18n-*.png) and measured for text running out of its box.
"""

# ruff: noqa: RUF001 - Chinese text uses full-width punctuation.

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from dotsboxes.games.models import Game
from tests.browser.conftest import ARTIFACTS
from tests.i18n.english import english_words
from tests.rooms.live import daphne_servers, server_env, worker_ports

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)
THINK_TIMEOUT = 20_000
WIDTHS = (1280, 375)

# Elements that may scroll sideways on purpose (long tables, the turn log).
_OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth;
  const bad = [];
  const page = document.documentElement.scrollWidth;
  if (page > width + 1) bad.push('page ' + page);
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.table-scroll, .log-scroll, .visually-hidden, svg, [hidden]')) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const box = el.getBoundingClientRect();
    if (!box.width) continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const what = el.tagName + ' ' + el.textContent.trim().slice(0, 30);
    const clips = ['hidden', 'clip'].includes(style.overflowX);
    if (box.right > width + 1) bad.push(what + ' right=' + Math.round(box.right));
    else if (clips && el.scrollWidth > el.clientWidth + 1) bad.push(what + ' clipped');
  }
  return bad;
}"""


@pytest.fixture
def browser_context_args(browser_context_args):
    """Chromium as a reader in China sets it up: Accept-Language zh-CN."""
    return {**browser_context_args, "locale": "zh-CN"}


def photograph(page: Page, name: str) -> None:
    """Screenshots at both widths, each after checking that no text overflows."""
    ARTIFACTS.mkdir(exist_ok=True)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        assert page.evaluate(_OVERFLOW_JS) == [], (name, width)
        page.screenshot(path=str(ARTIFACTS / f"i18n-{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def all_chinese(page: Page, *, leaving_out: str = "") -> None:
    """The page's text, less what ``leaving_out`` selects, has no English in it."""
    assert page.locator("html").get_attribute("lang") == "zh-hans"
    html = page.evaluate(
        """(selector) => {
          const copy = document.documentElement.cloneNode(true);
          if (selector) copy.querySelectorAll(selector).forEach(el => el.remove());
          return copy.outerHTML;
        }""",
        leaving_out,
    )
    assert english_words(html) == []


def test_home_rules_and_a_practice_exercise_are_in_chinese(live_server, page):
    page.goto(live_server.url + "/")
    expect(page.locator("h1")).to_have_text("点格棋")
    expect(page.get_by_role("navigation", name="主导航")).to_contain_text("对弈")
    all_chinese(page)
    photograph(page, "home")

    page.get_by_role("link", name="规则", exact=True).first.click()
    expect(page.locator("h1")).to_have_text("点格棋规则")
    all_chinese(page)
    photograph(page, "rules")

    page.goto(live_server.url + "/learn/practice/smallest-first/")
    expect(page.locator("h1")).to_have_text("先送最小的")
    expect(page.locator(".question")).to_contain_text("轮到蓝方走。")
    all_chinese(page)
    page.get_by_role("button", name="画 a2-a3").click()
    expect(page.locator(".verdict")).to_contain_text("正确：a2-a3。")
    expect(page.locator("#answer")).to_contain_text("送出单格只损失一格")
    all_chinese(page)
    photograph(page, "practice")


def test_a_game_against_the_computer_is_played_to_the_end_in_chinese(live_server, page):
    page.goto(live_server.url + "/play/")
    expect(page.locator("h1")).to_have_text("新对局")
    page.get_by_label("与电脑对弈").check()
    page.get_by_label("2 × 2", exact=True).check()
    page.get_by_label("蓝方：你画第一条边").check()
    page.get_by_role("button", name="开始对局").click()
    expect(page.locator("#game")).to_be_visible()
    page.wait_for_load_state("load")
    expect(page.locator("h1")).to_have_text(re.compile(r"2 × 2 格，与电脑对弈（休闲）"))
    all_chinese(page)
    photograph(page, "game-start")
    for _ in range(12):
        expect(page.locator(".thinking")).to_have_count(0, timeout=THINK_TIMEOUT)
        # The computer's last edge may still be on its way: wait for a free edge or the end.
        expect(page.locator(".slot, .result-banner").first).to_be_visible(timeout=THINK_TIMEOUT)
        if page.locator(".result-banner").count():
            break
        slot = page.locator(".slot").first
        edge = slot.get_attribute("data-edge")
        slot.click()
        # Wait for the server's answer to be on the page (the edge drawn) before the next
        # look: clicking again while the answer is on its way clicks a slot that is about to
        # go, and when that answer ends the game there is no slot left to click at all.
        expect(page.locator(f'.slot[data-edge="{edge}"]')).to_have_count(0, timeout=THINK_TIMEOUT)
        expect(page.locator("#game-status")).to_contain_text("蓝方画")
    expect(page.locator(".result-banner")).to_contain_text(re.compile(r"获胜|平局"))
    expect(page.get_by_role("link", name="从这局中学习")).to_be_visible()
    expect(page.get_by_role("button", name="再来一局")).to_be_visible()
    game = Game.objects.get(public_id=page.url.rstrip("/").split("/")[-1])
    assert game.status == "finished"
    all_chinese(page)
    photograph(page, "game-over")


def test_a_hint_says_in_chinese_whether_it_is_proved_or_estimated(live_server, page):
    # 2 x 2 boxes: the solver settles every position at once, so the hint is proved.
    page.goto(live_server.url + "/play/")
    page.get_by_label("与电脑对弈").check()
    page.get_by_label("2 × 2", exact=True).check()
    page.get_by_label("蓝方：你画第一条边").check()
    page.get_by_role("button", name="开始对局").click()
    expect(page.locator("#game")).to_be_visible()
    page.wait_for_load_state("load")
    page.get_by_role("button", name="提示").click()
    expect(page.locator(".edge.highlight")).to_have_count(1)
    expect(page.locator(".hint-line")).to_contain_text("已证明：双方走最佳着法时")
    all_chinese(page)
    photograph(page, "game-hint")


def test_the_switcher_returns_to_english_and_the_choice_persists(live_server, page):
    page.goto(live_server.url + "/learn/rules/")
    expect(page.locator("h1")).to_have_text("点格棋规则")
    page.get_by_role("button", name="English").click()
    expect(page.locator("h1")).to_have_text("The rules of Dots and Boxes")
    assert page.url == live_server.url + "/learn/rules/"
    assert page.locator("html").get_attribute("lang") == "en"
    # The browser still asks for Chinese; the cookie keeps English, page after page.
    page.goto(live_server.url + "/")
    expect(page.locator("h1")).to_have_text("Dots and Boxes")
    page.reload()
    expect(page.get_by_role("button", name="English")).to_have_attribute("aria-pressed", "true")
    photograph(page, "home-english")
    page.get_by_role("button", name="简体中文").click()
    expect(page.locator("h1")).to_have_text("点格棋")


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker, tmp_path_factory):
    """One Daphne process (WebSockets and all) on this test run's database."""
    with django_db_blocker.unblock():
        env = server_env(tmp_path_factory.mktemp("i18n-live"), ROOMS_TICK_SECONDS="0.2")
    with daphne_servers(env, worker_ports(1)[:1]) as (url,):
        yield url


@pytest.mark.django_db(transaction=True)
def test_an_online_room_is_in_chinese_for_both_players(site, browser: Browser):
    """The room as the server renders it for each reader.

    Scripts are off, so no live push (still rendered in one language for everyone,
    see the next test) replaces what the server wrote for this reader; the room
    works as plain forms.
    """
    contexts = [
        browser.new_context(
            locale="zh-CN", java_script_enabled=False, viewport={"width": 1280, "height": 900}
        )
        for _ in range(2)
    ]
    mei, lei = (c.new_page() for c in contexts)
    try:
        mei.goto(site + "/rooms/")
        expect(mei.locator("h1")).to_have_text("在线房间")
        all_chinese(mei)
        mei.get_by_label("你的显示名").fill("美")
        mei.get_by_label("蓝方（先走）").check()
        mei.get_by_label("宽度（格）").select_option("2")
        mei.get_by_label("高度（格）").select_option("2")
        mei.get_by_role("button", name="开房间").click()
        expect(mei.locator("#room-status")).to_contain_text("等待对手：把邀请链接发给对方。")
        # The room's system lines too ("美 开了房间" and the rest): stored as English
        # sentences with their values, they are put together in the reader's language.
        expect(mei.locator("#room-chat .line").first).to_contain_text("开了房间")
        all_chinese(mei)
        link = mei.get_by_label("邀请链接").input_value()

        lei.goto(link)
        expect(lei.locator("h2").first).to_have_text("入座空位")
        lei.get_by_label("你的显示名").fill("雷")
        lei.get_by_role("button", name="下这局棋").click()
        expect(lei.locator("#room")).to_have_attribute("data-me", "red")
        mei.reload()
        for page in (mei, lei):
            expect(page.locator("#room-status")).to_contain_text("轮到美（蓝方）走。")
            expect(page.locator("#room-players")).to_contain_text("蓝方 · 房主")
            all_chinese(page)
        photograph(lei, "room")
    finally:
        for context in contexts:
            context.close()


@pytest.mark.django_db(transaction=True)
def test_live_room_updates_arrive_in_the_readers_language(site, browser: Browser):
    """A Chinese host and an English guest: the guest's arrival reaches the host in Chinese."""
    contexts = [browser.new_context(locale="zh-CN"), browser.new_context(locale="en-GB")]
    mei, lei = (c.new_page() for c in contexts)
    try:
        mei.goto(site + "/rooms/")
        # The lobby's live lists: the script's connection word is the page's, not English.
        expect(mei.locator("#conn")).to_have_text("已连接")
        mei.get_by_label("你的显示名").fill("美")
        mei.get_by_label("蓝方（先走）").check()
        mei.get_by_role("button", name="开房间").click()
        expect(mei.locator("#conn")).to_have_text("已连接")
        lei.goto(mei.get_by_label("邀请链接").input_value())
        lei.get_by_label("Your display name").fill("Lei")
        lei.get_by_role("button", name="Play this game").click()
        expect(lei.locator("#room-status")).to_contain_text("美 (Blue) to move.")
        expect(mei.locator("#room-status")).to_contain_text("轮到美（蓝方）走。", timeout=5_000)
    finally:
        for context in contexts:
            context.close()
