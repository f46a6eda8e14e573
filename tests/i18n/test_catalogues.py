"""Each language's catalogue is complete, current and compiled (issue 17)."""

from __future__ import annotations

import gettext

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.utils.translation import to_locale

from tests.i18n.catalogue import LOCALE, languages, source_messages


def _catalogue(lang: str):
    with open(LOCALE / lang / "LC_MESSAGES" / "django.po", "rb") as f:
        return read_po(f, abort_invalid=True)


def test_every_configured_language_but_english_has_a_catalogue():
    configured = {to_locale(code) for code, _name in settings.LANGUAGES} - {"en"}
    assert set(languages()) == configured
    assert "zh_Hans" in configured


def test_the_extractor_finds_python_and_template_messages():
    found = source_messages()
    assert ("", "Blue draws the first edge.") in found  # a template's {% translate %}
    assert ("", "%(player)s moves again") in found  # a Python gettext
    assert ("navigation", "Main") in found  # a context
    assert len(found) > 500


@pytest.mark.parametrize("lang", languages())
def test_every_message_in_the_code_is_translated_and_none_is_fuzzy(lang):
    catalogue = _catalogue(lang)
    done = {
        (m.context or "", m.id if isinstance(m.id, str) else m.id[0])
        for m in catalogue
        if m.id and not m.fuzzy and all(m.string if isinstance(m.string, tuple) else [m.string])
    }
    fuzzy = sorted(str(m.id) for m in catalogue if m.id and m.fuzzy)
    missing = sorted(f"{c}|{i}" if c else i for c, i in source_messages() - done)
    assert fuzzy == []
    assert missing == []


@pytest.mark.parametrize("lang", languages())
def test_the_committed_mo_file_matches_its_po_file(lang):
    """The .mo is what Django reads: it must say exactly what the .po says."""
    catalogue = _catalogue(lang)
    expected = {}
    for m in catalogue:
        if not m.id or m.fuzzy:
            continue
        prefix = f"{m.context}\x04" if m.context else ""
        if isinstance(m.id, tuple):
            for n, text in enumerate(m.string):
                expected[(prefix + m.id[0], n)] = text
        else:
            expected[prefix + m.id] = m.string
    with open(LOCALE / lang / "LC_MESSAGES" / "django.mo", "rb") as f:
        compiled = gettext.GNUTranslations(f)._catalog
    compiled = {k: v for k, v in compiled.items() if k != ""}  # the header
    assert compiled == expected


def test_no_message_hides_inside_an_f_string():
    """xgettext and Babel cannot see a gettext() call inside an f-string's braces."""
    import re

    from tests.i18n.catalogue import ROOT

    hidden = re.compile(r"""\bf(["']).*\{[^}]*(\b(n|p)?gettext(_lazy)?|(?<![\w.])_)\(""")
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "dotsboxes").rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if hidden.search(line)
    ]
    assert found == []
