"""Claim coverage: answers that state a number or a formula should carry a check.

The heuristic, on an answer's markdown source:

* Code (fenced and inline), HTML comments (item metadata), link and image
  targets, bare URLs and ordered-list markers (``1.``) are ignored first.
* Math (``$...$`` or ``$$...$$``) states a claim when it holds a digit or a
  relation (``=``, ``<``, ``>``, ``\\approx``, ``\\neq``, ``\\le``, ``\\ge``,
  ``\\sim``, ``\\propto``, ``\\equiv``).
* Prose states a claim when it holds ``=``, ``≈``, ``≠``, ``≤``, ``≥``, the
  times sign (U+00D7) or ``÷``, or a number standing on its own: a digit
  not glued to a letter, digit, ``.`` or ``_`` before it, so ``3.3``,
  ``128``, ``4x`` and ``50%`` count but ``log2``, ``fp16``, ``c1`` and
  ``GPT-3`` do not.

A measurement cannot be proved; its item gets a ``check`` block holding a
comment that says so, which is enough to silence the warning.
"""

from __future__ import annotations

import bisect
import re

from ankigen.model import Item

_IGNORED = (
    re.compile(r"<!--.*?-->", re.S),  # metadata comments
    re.compile(r"\]\([^)]*\)"),  # link and image targets
    re.compile(r"<[A-Za-z][A-Za-z0-9+.-]*:[^>\s]*>"),  # autolinks
    re.compile(r"\bhttps?://\S+"),  # bare URLs
    re.compile(r"^[ \t>]*\d+[.)](?=\s)", re.M),  # ordered-list markers
)
_MATH = re.compile(r"\$\$(.+?)\$\$|(?<!\\)\$(.+?)(?<!\\)\$", re.S)
_MATH_CLAIM = re.compile(r"[0-9=<>]|\\(?:approx|neq?|leq?|geq?|sim|simeq|propto|equiv)(?![A-Za-z])")
_PROSE_CLAIM = re.compile(r"[=≈≠≤≥\u00d7÷]|(?<![A-Za-z_0-9.])(?<![A-Za-z]-)[0-9]")

UNVERIFIED = "unverified claim: the answer states a number or formula but has no check block"


def states_claim(markdown: str) -> bool:
    """True when the markdown states a number or an equation (see the module doc)."""
    # Code first, by linear scans: backreference regexes for fences and
    # spans backtrack badly on long runs of backticks.
    text = _without_fences(_without_code_spans(markdown))
    for pattern in _IGNORED:
        text = pattern.sub(" ", text)
    maths = [m.group(1) or m.group(2) for m in _MATH.finditer(text)]
    if any(_MATH_CLAIM.search(math) for math in maths):
        return True
    prose = _MATH.sub(" ", text)
    return _PROSE_CLAIM.search(prose) is not None


_TICKS = re.compile(r"`+")
_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})")


def _without_fences(text: str) -> str:
    """Drop fenced code blocks: from a fence line to one of the same kind, at least as long."""
    kept: list[str] = []
    fence = ""
    for line in text.split("\n"):
        match = _FENCE.match(line)
        if fence:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = ""
            continue
        if match:
            fence = match.group(1)
            continue
        kept.append(line)
    return "\n".join(kept)


def _without_code_spans(text: str) -> str:
    """Blank out inline code spans: a run of backticks up to the next run as long.

    Done with a lookup per run length rather than a backreference regex,
    which backtracks cubically on a long run of backticks.
    """
    runs = list(_TICKS.finditer(text))
    by_length: dict[int, list[int]] = {}
    for index, run in enumerate(runs):
        by_length.setdefault(len(run.group()), []).append(index)
    parts: list[str] = []
    position = index = 0
    while index < len(runs):
        opener = runs[index]
        same = by_length[len(opener.group())]
        later = bisect.bisect_right(same, index)
        if later == len(same):
            index += 1  # no closing run: these backticks are literal
            continue
        closer = runs[same[later]]
        parts.extend((text[position : opener.start()], " "))
        position = closer.end()
        index = same[later] + 1
    parts.append(text[position:])
    return "".join(parts)


def needs_check(item: Item) -> bool:
    """True for an item whose answer states a claim and that has no check block."""
    return not item.checks and states_claim(item.answer_source)
