"""The messages the code asks for, found without GNU gettext.

``manage.py makemessages`` needs ``xgettext``; a fresh machine may not have it.
This reads the same sources the same way in pure Python: templates go through
Django's own ``templatize`` (what ``makemessages`` feeds to ``xgettext``) and
Babel's Python extractor reads the result and every ``.py`` file, with Django's
gettext function names as keywords.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.extract import extract
from django.utils.translation.template import templatize

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "dotsboxes" / "locale"

KEYWORDS = {
    "_": None,
    "gettext": None,
    "gettext_lazy": None,
    "gettext_noop": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "npgettext_lazy": ((1, "c"), 2, 3),
}


def _from_python(source: str) -> set[tuple[str, str]]:
    found = set()
    for _line, message, _comments, context in extract(
        "python", io.BytesIO(source.encode()), keywords=KEYWORDS, comment_tags=()
    ):
        msgid = message if isinstance(message, str) else message[0]
        found.add((context or "", msgid))
    return found


def source_messages() -> set[tuple[str, str]]:
    """Every (context, msgid) in our Python code and templates."""
    found: set[tuple[str, str]] = set()
    for path in sorted((ROOT / "dotsboxes").rglob("*.py")):
        if "migrations" not in path.parts:
            found |= _from_python(path.read_text())
    # Every template, mail (``.txt``) included: its words reach readers too.
    templates = [p for p in (ROOT / "templates").rglob("*") if p.suffix in (".html", ".txt")]
    for path in sorted(templates):
        # templatize keeps the template's line breaks and indentation (as filler
        # characters) around one-line gettext() calls: unindent to make it Python.
        code = templatize(path.read_text(), origin=str(path))
        found |= _from_python("\n".join(line.lstrip() for line in code.splitlines()))
    return found


def languages() -> list[str]:
    """The locale folders that have a catalogue (one per language besides English)."""
    return sorted(p.parent.parent.name for p in LOCALE.glob("*/LC_MESSAGES/django.po"))
