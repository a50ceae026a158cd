"""``\\:``: a colon escaped with a backslash is text, never part of a ``:::`` separator.

markdown-it reads ``\\:`` as an escape (a ``text_special`` token holding the
colon), which ``text_join`` then merges into the text around it, so the
separator reader would see ``:::`` where the author wrote ``\\:::`` to keep
the colons as text (``ankigen import`` writes a literal ``:::`` that way).
This core rule runs just before ``text_join`` and notes on the text token
that will hold the merged text where each escaped colon stands in it
(``token_meta.escaped_colons``); ``syntax.separator.matches`` never counts a
colon noted so. The source-line readers agree already: in the markdown
source a backslash stands before such a ``:::``, so it is no separator there.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from ankigen.parse import token_meta

_TEXT = ("text", "text_special")


def escaped_colon_plugin(md: MarkdownIt) -> None:
    """Register the rule just before ``text_join`` merges the escapes into text."""
    md.core.ruler.before("text_join", "escaped_colons", _note_escaped_colons)


def _note_escaped_colons(state: StateCore) -> None:
    for block in state.tokens:
        if block.type == "inline" and block.children and "\\:" in block.content:
            _note_in(block.children)


def _note_in(children: list[Token]) -> None:
    """Note each escaped colon on the first token of its run of text (the one
    ``text_join`` keeps), at its offset in the run's merged text."""
    head: Token | None = None
    offset = 0
    for child in children:
        if child.type not in _TEXT:
            head = None
            continue
        if head is None:
            head, offset = child, 0
        if child.type == "text_special" and child.info == "escape" and child.content == ":":
            token_meta.note_escaped_colon(head, offset)
        offset += len(child.content)
