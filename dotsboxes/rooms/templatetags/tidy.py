"""``{% tidy %}…{% endtidy %}``: a template written on many lines, output as one.

Inside the block a line break and the white space around it are the template's
layout, not output.  Between two tags (after ``>`` or a template tag, before ``<``
or a template tag) it is dropped; anywhere else (between attributes, between
words) it becomes one space.  So a push template can be laid out to be read and
still sends the bytes a hand-minified one did.  It happens once, when the template
is compiled: nothing is added to a render (``{% spaceless %}`` works on every
rendered string, and only between HTML tags).  What variables, tags and included
templates output is left as it is.
"""

from __future__ import annotations

import re

from django import template
from django.template.base import Node, NodeList, Parser, TextNode, Token

register = template.Library()

_BREAK = re.compile(r"[ \t]*\n\s*")


def tidy_text(text: str) -> str:
    """``text`` (the template's own text between two tags) with its line breaks tidied.

    >>> tidy_text('<p>\\n  <b>x</b>\\n</p>')
    '<p><b>x</b></p>'
    >>> tidy_text('<div id="a"\\n     hidden>')
    '<div id="a" hidden>'
    >>> tidy_text('\\n  ')
    ''
    """

    def layout(found: re.Match[str]) -> str:
        start, end = found.span()
        after_tag = start == 0 or text[start - 1] == ">"
        before_tag = end == len(text) or text[end] == "<"
        return "" if after_tag and before_tag else " "

    return _BREAK.sub(layout, text)


class TidyNode(Node):
    def __init__(self, nodelist: NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: template.Context) -> str:
        return self.nodelist.render(context)


@register.tag
def tidy(parser: Parser, token: Token) -> TidyNode:
    nodelist = parser.parse(("endtidy",))
    parser.delete_first_token()
    # Every text node of the block, in nested tags and partials too: a partial
    # rendered on its own shares these nodes.
    for node in nodelist.get_nodes_by_type(TextNode):
        node.s = tidy_text(node.s)
    return TidyNode(nodelist)
