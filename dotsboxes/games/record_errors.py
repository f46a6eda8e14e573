"""Why an imported record was refused, in the reader's language.

The rules core raises :class:`InvalidRecordError` with an English message, a
``code`` for the kind of problem and its ``params``; this table says each kind
in a translatable sentence, so a Chinese page shows no English.  An error
without a known code keeps the core's sentence (nothing is lost).
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

MESSAGES = {
    "empty": gettext_noop("The record is empty."),
    "header": gettext_noop("Header line %(line)d is not “Key: value”: “%(text)s”"),
    "no_size": gettext_noop("The record has no “Size: W x H boxes” line."),
    "bad_size": gettext_noop(
        "A board of %(w)d x %(h)d boxes cannot be played: sizes run from 1 to 9 boxes."
    ),
    "size_format": gettext_noop(
        "The size “%(value)s” should read like “5 x 5 boxes (6 x 6 dots)”."
    ),
    "size_contradiction": gettext_noop(
        "The size “%(value)s” contradicts itself: %(w)d x %(h)d boxes have %(dw)d x %(dh)d dots."
    ),
    "turn_expected": gettext_noop("Turn %(turn)d: expected “%(turn)d.” but found “%(found)s”."),
    "turn_numbered": gettext_noop("Turn %(turn)d is numbered %(number)s."),
    "turn_empty": gettext_noop("Turn %(turn)d has no edge."),
    "turn_goes_on": gettext_noop(
        "Turn %(turn)d, edge %(edge)s: it claimed a box, so the same player moves again; "
        "list the next edge in turn %(turn)d."
    ),
    "turn_passed": gettext_noop(
        "Turn %(turn)d, edge %(next)s: %(edge)s claimed no box, so play passed before it."
    ),
    "edge_drawn": gettext_noop("Turn %(turn)d, edge %(edge)s: that edge is already drawn."),
    "edge_invalid": gettext_noop(
        "Turn %(turn)d, edge %(edge)s: that is not an edge of this board (name two "
        "neighbouring dots, such as a1-b1)."
    ),
    "position_key": gettext_noop("The Position header is not a position key."),
    "position_size": gettext_noop("The Position header does not match the Size line."),
}


def record_error_text(error: Exception, fallback: str) -> str:
    """The sentence for ``error`` in the active language (``fallback`` if its kind is new)."""
    message = MESSAGES.get(getattr(error, "code", ""))
    if message is None:
        return fallback
    return gettext(message) % getattr(error, "params", {})
