"""``$\\text{if $x>0$}$``: a ``$`` inside a formula's braces does not end it.

MathJax reads ``$...$`` inside ``\\text{...}`` as math within the text, so
both math modes accept it; dollar math alone would end the formula at that
inner ``$``. This rule runs before dollar math and takes an inline formula
whose closing ``$`` stands outside every brace, but only when a ``$`` inside
braces came first: every other formula is left to dollar math, read exactly
as before. The closing ``$`` follows dollar math's rules (not escaped, not
followed by a digit).
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_inline.state_inline import StateInline

from ankigen.syntax import tex as syntax_tex


def braced_dollar_plugin(md: MarkdownIt) -> None:
    """Register the rule ahead of dollar math."""
    md.inline.ruler.before("math_inline", "braced_dollar", _tokenize)


def _tokenize(state: StateInline, silent: bool) -> bool:
    src, start = state.src, state.pos
    if src[start] != "$" or src.startswith("$$", start) or _escaped(src, start):
        return False
    end = _closing_dollar(src, start + 1, state.posMax)
    if end is None:
        return False
    if not silent:
        token = state.push("math_inline", "math", 0)
        token.content = src[start + 1 : end]
        token.markup = "$"
    state.pos = end + 1
    return True


def _closing_dollar(src: str, pos: int, stop: int) -> int | None:
    """The closing ``$`` at brace depth 0, when a ``$`` inside braces came before it."""
    depth = 0
    braced_dollar = False
    # TeX's tokens: an escaped character (\{ \} \$) is a token of its own
    for token in syntax_tex.token_spans(src, pos, stop):
        char, at = token.group(), token.start()
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        elif char == "$":
            if depth > 0:
                braced_dollar = True
            elif not braced_dollar:
                return None  # an ordinary formula: dollar math reads it
            elif at + 1 < stop and src[at + 1].isdigit():
                return None
            else:
                return at
    return None


def _escaped(src: str, pos: int) -> bool:
    backslashes = 0
    while pos - backslashes - 1 >= 0 and src[pos - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1
