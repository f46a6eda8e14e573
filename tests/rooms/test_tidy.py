"""{% tidy %}: push templates laid out on many lines, sent as one (rooms/templatetags/tidy.py)."""

from __future__ import annotations

from pathlib import Path

from django.template import Context, engines

from dotsboxes.rooms.templatetags.tidy import tidy_text

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def render(source: str, **context: object) -> str:
    return engines["django"].from_string(source).render(context)


def test_a_line_break_between_tags_is_dropped_and_elsewhere_is_one_space():
    assert tidy_text("<p>\n  <b>x</b>\n</p>") == "<p><b>x</b></p>"
    assert tidy_text('<div id="a"\n     hidden>') == '<div id="a" hidden>'
    assert tidy_text("two\n   words") == "two words"
    assert tidy_text("  \n\n  ") == ""
    assert tidy_text("a, b") == "a, b"  # no line break: as written


def test_the_block_tidies_its_own_text_but_not_what_variables_output():
    source = (
        "{% load tidy %}{% tidy %}\n<ul>\n  {% for x in xs %}\n    <li>{{ x }}</li>\n"
        "  {% endfor %}\n</ul>\n{% endtidy %}"
    )
    assert render(source, xs=["a\n  b", "c"]) == "<ul><li>a\n  b</li><li>c</li></ul>"


def test_a_partial_rendered_alone_is_tidied_too():
    source = (
        "{% load partials tidy %}{% tidy %}{% partialdef cell %}\n  <td>\n    {{ v }}\n"
        "  </td>\n{% endpartialdef %}{% endtidy %}"
    )
    template = engines["django"].from_string(source)
    partial = template.template.extra_data["partials"]["cell"]
    assert partial.render(Context({"v": 1})) == "<td>1</td>"


def test_the_push_templates_are_written_on_lines_a_person_can_read():
    # push.html had a 1,058-character line; the partials a move push includes were
    # single lines of up to 575.
    push = (TEMPLATES / "rooms/push.html").read_text()
    assert max(len(line) for line in push.splitlines()) <= 120
    room = (TEMPLATES / "rooms/room.html").read_text()
    for name in ("sync", "score", "clock", "ask", "turn"):
        partial = room.split("{% partialdef " + name)[1].split("{% endpartialdef %}")[0]
        assert "{% tidy %}" in partial
        assert max(len(line) for line in partial.splitlines()) <= 160, name
