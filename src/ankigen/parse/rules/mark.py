"""``==text==``: the cloze shorthand, tokenized as ``mark_open``/``mark_close``.

A port of markdown-it-mark. ``==`` follows emphasis flanking rules
(markdown-it's delimiter machinery decides) and, like ``__``, never opens or
closes inside a word, so ``a==b and c==d`` stays text as the format requires.
Code spans and math are separate inline tokens, so ``==`` is never read
inside them.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
from markdown_it.rules_inline.state_inline import Delimiter, StateInline

from ankigen.diagnostics import Code
from ankigen.syntax import Finding

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


# --- near misses ------------------------------------------------------------

NEAR_MISS = Code.MARK_NEAR_MISS
UNCLOSED_MARK = Code.MARK_UNCLOSED
#: Two equals signs alone: not part of ``===``, nor of an arrow (``==>``, ``<==``).
_RUN = re.compile(r"(?<![=<>!])==(?![=<>])")


def near_misses(line: str) -> list[Finding]:
    """``== text==`` and ``==text ==``: a mark that cannot open or close; ``==text``
    that opens and never closes (warnings).

    ``line`` is one line's text left over after parsing (so every ``==`` in
    it stayed text: a mark markdown-it paired, on this line or across lines,
    is masked), code and math masked. Reported is a pair of ``==`` where
    one hugs its text and the other stands apart from it on the inner side,
    and a ``==`` that opens by the flanking rules before a word and is in no
    such pair; a comparison spaced on both sides (``x == y``) or inside words
    (``a==b``) is never reported.
    """
    if "==" not in line:
        return []  # the common case, cheaply
    runs = [_Run.at(line, match.start()) for match in _RUN.finditer(line)]
    found = _loose_pairs(line, runs)
    paired = {finding.start for finding in found}
    found += [_unclosed(line, run) for run in runs if run.opens_word and run.start not in paired]
    return sorted(found, key=lambda finding: finding.start)


def _loose_pairs(line: str, runs: list[_Run]) -> list[Finding]:
    """``== text==`` and ``==text ==``: two runs that were meant as one mark."""
    found: list[Finding] = []
    for first, second in itertools.pairwise(runs):
        inner = line[first.start + 2 : second.start]
        if not inner.strip():
            continue
        loose_open = first.spaced_open and second.can_close
        loose_close = first.can_open and second.spaced_close
        if not (loose_open or loose_close):
            continue
        written = line[first.start : second.start + 2]
        message = NEAR_MISS.message(written=written, inner=inner.strip())
        found.append(Finding(first.start, written, message, NEAR_MISS, is_warning=True))
    return found


def _unclosed(line: str, run: _Run) -> Finding:
    """A ``==`` that opens a mark no ``==`` closes: shown with the word it opens on."""
    end, limit = run.start + 2, min(len(line), run.start + 2 + _WORD_LIMIT)
    while end < limit and not line[end].isspace():  # bounded: a line of marks stays linear
        end += 1
    # Shown up to a masked token (code, a formula), so that it is found in the source line.
    written = line[run.start : end].split(_MASK, 1)[0]
    word = _WORD.match(written, 2)  # the word it opens on, without what follows it
    inner = word.group() if word else "text"
    message = UNCLOSED_MARK.message(written=written, inner=inner)
    return Finding(run.start, written, message, UNCLOSED_MARK, is_warning=True)


#: What may stand right before a ``==`` that opens a mark, besides white space.
_OPENING = "([{<\"'\u201c\u2018\u00ab*_~"
#: The word an unclosed ``==`` opens on, as its message's fix shows it (``==mode==``).
_WORD = re.compile(r"[\w\ufffc]+(?:['\u2019-][\w\ufffc]+)*")
#: At most this many characters of the word after an unclosed ``==`` are shown.
_WORD_LIMIT = 40
#: What the caller masks a code span, a formula or emphasis with: it reads as a word.
_MASK = "\ufffc"


@dataclass(frozen=True)
class _Run:
    """One ``==`` in a line, and how the characters around it let it open or close."""

    start: int
    can_open: bool
    can_close: bool
    spaced_open: bool
    spaced_close: bool
    #: Opens by markdown-it's flanking rules (``__``'s: never inside a word), before a word.
    opens_word: bool

    @classmethod
    def at(cls, line: str, start: int) -> _Run:
        before = line[start - 1] if start > 0 else " "
        after = line[start + 2] if start + 2 < len(line) else " "
        outside_before = before.isspace() or _is_punctuation(before)
        outside_after = after.isspace() or _is_punctuation(after)
        return cls(
            start,
            can_open=outside_before and not after.isspace(),
            can_close=outside_after and not before.isspace(),
            spaced_open=outside_before and after.isspace(),
            spaced_close=outside_after and before.isspace(),
            # Only after a space or an opening mark: `f(x)==g(x)`, `x[i]==y` compare.
            opens_word=_opens(before, after)
            and (before.isspace() or before in _OPENING)
            and (after.isalnum() or after == _MASK),
        )


def _opens(before: str, after: str) -> bool:
    """Whether a delimiter run between ``before`` and ``after`` can open, as ``scanDelims``
    decides it with ``canSplitWord=False`` (CommonMark's rule for ``__``)."""
    after_space, before_space = isWhiteSpace(ord(after)), isWhiteSpace(ord(before))
    after_punct, before_punct = _md_punctuation(after), _md_punctuation(before)
    left = not after_space and (not after_punct or before_space or before_punct)
    right = not before_space and (not before_punct or after_space or after_punct)
    return left and (not right or before_punct)


def _md_punctuation(char: str) -> bool:
    """Punctuation as markdown-it's delimiter scan reads it (ASCII symbols such as ``$`` too).

    The mask reads as a letter: after ``$x$`` or `` `code` `` a ``==`` is a
    comparison (``$a$==$b$``) far more often than a cloze.
    """
    return char != _MASK and (isMdAsciiPunct(ord(char)) or isPunctChar(char))


def _is_punctuation(char: str) -> bool:
    return unicodedata.category(char).startswith("P")
