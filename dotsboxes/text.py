"""Checks on free text people type: names, chat, reports, imported records.

Control characters have no place in any of them: they are invisible, can
garble a page or a log, and PostgreSQL refuses NUL outright.  Tabs and line
breaks are ordinary white space and pass.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

ALLOWED_WHITESPACE = frozenset("\t\n\r")

# Translators: what Django's forms put after each label ("Name:"). Django's own
# Chinese catalogue keeps the ASCII colon; ours is read first and says it in full width.
# Marked here so that makemessages keeps the entry.
LABEL_SUFFIX = gettext_noop(":")


def first_control_character(text: str) -> str | None:
    """The first control character in ``text`` (tabs and line breaks excepted), or None.

    >>> first_control_character("Good game!\\n")
    >>> first_control_character("bell\\x07")
    '\\x07'
    """
    for char in text:
        if char not in ALLOWED_WHITESPACE and unicodedata.category(char) == "Cc":
            return char
    return None


def control_character_message(char: str) -> str:
    return _(
        "Remove the invisible control character (U+%(code)04X) from this text: "
        "only letters, digits, punctuation, spaces and line breaks are allowed."
    ) % {"code": ord(char)}


def reject_control_characters(value: object) -> None:
    """A form field validator: refuse text that holds a control character, naming it."""
    char = first_control_character(str(value))
    if char is not None:
        raise ValidationError(control_character_message(char), code="control_character")


def posted_edge(data) -> str:
    """The edge a form posted: a board button's value, else the typed one.

    Without JavaScript a board's edge buttons and its "type the edge" field share one
    form and one name, so a click posts the button's value and the empty field
    (``edge=e3-e4&edge=``): the first value that is not blank is the answer.
    """
    return next((v for v in data.getlist("edge") if v.strip()), "").strip()
