"""What English is left in a page rendered in another language."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Names that stay as they are in every language: the site, the languages in the
# switcher (each in its own language), people and a book.
PROPER_NAMES = {
    "dotsboxes",
    "English",
    "Elwyn Berlekamp",
    "The Dots and Boxes Game",
    "Sophisticated Child's Play",
    "Glicko",
    "Ada",
    "Ben",
    "Cleo",
    "Dev",
}
_WORDS = re.compile(r"[A-Za-z][A-Za-z']+(?:\s+[A-Za-z][A-Za-z']+)*")


class _Text(HTMLParser):
    """Visible text and labels, without notation (<code>, <pre>, board pictures)."""

    SKIP = ("script", "style", "svg", "code", "pre")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self._skip += 1
        for name, value in attrs:
            if value and name in ("aria-label", "title", "placeholder", "alt"):
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def english_words(html: str, *, allowed: set[str] = frozenset()) -> list[str]:
    """Runs of Latin-letter words in the page's text, less proper names."""
    parser = _Text()
    parser.feed(html)
    found = {m for part in parser.parts for m in _WORDS.findall(part)}
    return sorted(found - PROPER_NAMES - set(allowed))
