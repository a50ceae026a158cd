"""``[$]``, ``[$$]``, ``[/$]``, ``[/$$]``: Anki's LaTeX brackets, read as literal text.

Format §14: Anki's bracket commands in content are shown as written. The
other commands (``[sound:…]``, ``[latex]``…) are plain text to markdown-it
already, but these four hold a ``$`` that dollar math would otherwise take as
the start of a formula (``[$]x[/$]`` would become the formula ``]x[/``).
The rule runs before dollar math and emits ``text_special`` tokens, which
``text_join`` turns into text after the stray-``$`` check has looked (they
are no stray dollars). ``ankigen.syntax.anki_markup.inert`` then makes them inert.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_inline.state_inline import StateInline

_BRACKET = re.compile(r"\[/?\$\$?\]")


def anki_bracket_plugin(md: MarkdownIt) -> None:
    """Register the rule ahead of dollar math."""
    md.inline.ruler.before("math_inline", "anki_bracket", _tokenize)


def _tokenize(state: StateInline, silent: bool) -> bool:
    if state.src[state.pos] != "[":
        return False
    match = _BRACKET.match(state.src, state.pos)
    if match is None:
        return False
    if not silent:
        token = state.push("text_special", "", 0)
        token.content = match.group(0)
        token.markup = match.group(0)
        token.info = "anki_bracket"
    state.pos = match.end()
    return True
