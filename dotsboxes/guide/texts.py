"""The guide's texts kept in its data files, each in every language of the site.

A :class:`Text` is the English text (a ``str``, so code and tests read it as
before) carrying its translations; :func:`local` gives it in the reader's
language.  The Chinese lives in the data file beside the English rather than in
the gettext catalogue, so one file holds a study whole (see
docs/decisions/0303-guide-content-as-data.md).
"""

from __future__ import annotations

from django.utils.translation import get_language, gettext


class Text(str):
    """English text with its translations by language code (``"zh-hans"``)."""

    translations: dict[str, str]

    def __new__(cls, english: str, translations: dict[str, str] | None = None) -> Text:
        text = super().__new__(cls, english)
        text.translations = dict(translations or {})
        return text

    @classmethod
    def from_data(cls, value: dict[str, str]) -> Text:
        """``{"en": ..., "zh-hans": ...}`` as stored in the data files."""
        return cls(value["en"], {lang: t for lang, t in value.items() if lang != "en"})

    def localized(self, language: str | None = None) -> str:
        language = (language or get_language() or "en").lower()
        return self.translations.get(language, str(self))


def local(text: object) -> str:
    """A guide text in the reader's language: a data :class:`Text`, or a message of the
    catalogue (texts still marked with ``gettext_noop`` in code)."""
    if isinstance(text, Text):
        return text.localized()
    return gettext(str(text)) if text else ""
