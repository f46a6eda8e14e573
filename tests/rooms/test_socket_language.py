"""A socket's pushes come in the language its page was rendered in."""

from __future__ import annotations

import pytest

from dotsboxes.rooms.identity import socket_language


def scope(query: bytes = b"", **headers: str) -> dict:
    return {
        "query_string": query,
        "headers": [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()],
    }


def test_the_page_named_language_wins_over_cookie_and_browser():
    assert socket_language(scope(b"lang=zh-hans", cookie="django_language=en")) == "zh-hans"
    assert socket_language(scope(b"lang=en", accept_language="zh-CN,zh;q=0.9")) == "en"


def test_without_it_the_cookie_then_the_browsers_language_decide():
    assert socket_language(scope(cookie="a=1; django_language=zh-hans")) == "zh-hans"
    assert socket_language(scope(accept_language="zh-CN,zh;q=0.9,en;q=0.5")) == "zh-hans"
    assert socket_language(scope(accept_language="fr-FR, en;q=0.1")) == "en"


@pytest.mark.parametrize(
    "query", [b"lang=xx", b"lang=", b"lang=%00", b"lang=zh-hans.lobby", b"lang=" + b"z" * 500]
)
def test_a_language_the_site_does_not_speak_is_never_used(query):
    # Only a configured language may become part of a channel-layer group name.
    assert socket_language(scope(query, cookie="django_language=../x")) == "en"
