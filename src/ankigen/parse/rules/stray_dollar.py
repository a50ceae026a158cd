"""Find ``$`` signs that opened no math: an unclosed ``$`` is an error.

Runs as a core rule before ``text_join`` so that an escaped ``\\$`` (a
``text_special`` token) is still told apart from a bare ``$``. The offending
inline block notes the line offsets (within the block) that hold one
(``token_meta.set_stray_dollar_lines``).
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from ankigen.parse import token_meta
from ankigen.parse.paragraph import BREAKS


def stray_dollar_plugin(md: MarkdownIt) -> None:
    """Register the core rule."""
    md.core.ruler.before("text_join", "stray_dollar", _find_stray_dollars)


def _find_stray_dollars(state: StateCore) -> None:
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        offsets: list[int] = []
        line = 0
        for child in block.children:
            if child.type in BREAKS:
                line += 1
            elif child.type == "text" and "$" in child.content:
                offsets.append(line)
            elif child.type.startswith("math"):
                line += child.content.count("\n")
        if offsets:
            token_meta.set_stray_dollar_lines(block, offsets)
