"""Every template's visible text is marked for translation (issue 17)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.i18n.unmarked import unmarked_strings

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))


def test_the_extractor_finds_unmarked_text_and_attributes():
    source = (
        '{% load i18n %}<h1>Dots and Boxes</h1><p>{% translate "Marked" %}</p>'
        '<button aria-label="Close it">&times;</button>{% blocktranslate %}Also {{ x }} marked'
        "{% endblocktranslate %}<svg><text>B</text></svg><code>a1-b1</code>"
        "{# a comment #}<script>let words = 'not text';</script>"
        '<pre translate="no">Size: 3 x 3 boxes</pre>'
    )
    assert unmarked_strings(source) == ["Dots and Boxes", "Close it"]


def test_templates_are_found():
    assert len(TEMPLATES) > 20


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_template_has_no_unmarked_visible_text(path: Path):
    assert unmarked_strings(path.read_text()) == []
