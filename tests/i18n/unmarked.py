"""Find user-visible text in a Django template that is not marked for translation.

A deliberately simple extractor: drop comments and everything Django renders
itself (``{{ … }}``, ``{% … %}``, so ``{% translate %}`` and whole
``{% blocktranslate %}…{% endblocktranslate %}`` blocks go too), then read what is
left as HTML and report every text node and every user-visible attribute that
still contains a word.  Edge names, single letters (the B and R initials) and the
site's name are not words to translate, nor is an element marked ``translate="no"``
(HTML's own marker, e.g. a sample game record, whose keywords are the notation).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

VISIBLE_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt", "aria-description", "hx-confirm"}
_COMMENT = re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|{#.*?#}", re.S)
_BLOCK = re.compile(r"{%\s*blocktrans(?:late)?\b.*?%}.*?{%\s*endblocktrans(?:late)?\s*%}", re.S)
_TAG = re.compile(r"{%.*?%}|{{.*?}}", re.S)
_WORD = re.compile(r"[^\W\d_]{2,}")
# Not words to translate: edge names, notation, the site's name, HTML entities.
_NOT_WORDS = re.compile(r"\b[a-j]\d+-[a-j]\d+\b|\bdotsboxes\b|&\w+;|\bhtmx\b")


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.found: list[str] = []
        self._skip: list[str] = []  # the open <script>, <style> or translate="no" elements

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style") or ("translate", "no") in attrs:
            self._skip.append(tag)
        for name, value in attrs:
            if value and (
                name in VISIBLE_ATTRIBUTES
                or (name == "content" and ("name", "description") in attrs)
                or (name == "value" and ("type", "submit") in attrs)
            ):
                self._check(value)

    def handle_endtag(self, tag: str) -> None:
        if self._skip and tag == self._skip[-1]:
            self._skip.pop()

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._check(data)

    def _check(self, text: str) -> None:
        if _WORD.search(_NOT_WORDS.sub(" ", text)):
            self.found.append(" ".join(text.split()))


def unmarked_strings(source: str) -> list[str]:
    """The visible strings of a template source that no translation tag covers."""
    text = _COMMENT.sub("", source)
    text = _BLOCK.sub(" ", text)
    text = _TAG.sub(" ", text)
    collector = _Collector()
    collector.feed(text)
    collector.close()
    return collector.found
