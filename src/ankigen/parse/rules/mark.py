"""``==text==``: the cloze shorthand, tokenized as ``mark_open``/``mark_close``.

A port of markdown-it-mark. ``==`` follows emphasis flanking rules
(markdown-it's delimiter machinery decides) and, like ``__``, never opens or
closes inside a word, so ``a==b and c==d`` stays text as the format requires.
Code spans and math are separate inline tokens, so ``==`` is never read
inside them.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_inline.state_inline import Delimiter, StateInline

_EQUALS = 0x3D


def mark_plugin(md: MarkdownIt) -> None:
    """Register the ``mark`` tokenizer and its delimiter post-processor."""
    md.inline.ruler.before("emphasis", "mark", _tokenize)
    md.inline.ruler2.before("emphasis", "mark", _post_process)


def _tokenize(state: StateInline, silent: bool) -> bool:
    start = state.pos
    if silent or state.src[start] != "=":
        return False
    # canSplitWord=False: like `__`, `==` cannot open or close inside a
    # word, so `a==b and c==d` (comparisons in prose) is never a cloze.
    scanned = state.scanDelims(start, False)
    length = scanned.length
    if length < 2:
        return False
    if length % 2:
        token = state.push("text", "", 0)
        token.content = "="
        length -= 1
    for _ in range(0, length, 2):
        token = state.push("text", "", 0)
        token.content = "=="
        state.delimiters.append(
            Delimiter(
                marker=_EQUALS,
                length=0,  # disable the "rule of 3" length checks, as for ~~
                token=len(state.tokens) - 1,
                end=-1,
                open=scanned.can_open,
                close=scanned.can_close,
            )
        )
    state.pos += scanned.length
    return True


def _post_process(state: StateInline) -> None:
    _pair_delimiters(state, state.delimiters)
    for meta in state.tokens_meta:
        if meta and "delimiters" in meta:
            _pair_delimiters(state, meta["delimiters"])


def _pair_delimiters(state: StateInline, delimiters: list[Delimiter]) -> None:
    lone_markers: list[int] = []
    for start in delimiters:
        if start.marker != _EQUALS or start.end == -1:
            continue
        end = delimiters[start.end]
        opener = state.tokens[start.token]
        opener.type, opener.tag, opener.nesting, opener.markup, opener.content = (
            "mark_open",
            "mark",
            1,
            "==",
            "",
        )
        closer = state.tokens[end.token]
        closer.type, closer.tag, closer.nesting, closer.markup, closer.content = (
            "mark_close",
            "mark",
            -1,
            "==",
            "",
        )
        before_close = state.tokens[end.token - 1]
        if before_close.type == "text" and before_close.content == "=":
            lone_markers.append(end.token - 1)
    # An odd run `=====` splits as `=` + `==` + `==`; move each lone `=`
    # after the closing tags it precedes, as markdown-it does for `~`.
    while lone_markers:
        i = lone_markers.pop()
        j = i + 1
        while j < len(state.tokens) and state.tokens[j].type == "mark_close":
            j += 1
        j -= 1
        if i != j:
            state.tokens[i], state.tokens[j] = state.tokens[j], state.tokens[i]
