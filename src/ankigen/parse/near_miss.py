"""Near-miss syntax in a paragraph (format section 13): which text each syntax module reads.

The rules live with their syntax: ``ankigen.syntax.cloze`` for cloze
markers, ``ankigen.syntax.separator`` for ``:::``, ``parse.rules.mark`` for
``==``. This module only cuts a paragraph's inline tokens into lines, masks
what a rule must not read (code, formulas, real clozes), hands each line to
the rules and turns their offsets into line and column.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markdown_it.token import Token

from ankigen.diagnostics import Severity, Sink
from ankigen.parse import token_meta
from ankigen.parse.paragraph import BREAKS
from ankigen.parse.rules import mark
from ankigen.syntax import Finding, cloze, habits, separator

#: Stands for a token whose text no rule reads (code, a formula, emphasis
#: markers): not white space and not punctuation, like a letter.
_MASK = "\ufffc"
_MATH_TYPES = ("math_inline", "math_inline_double", "math_block")
_FULL_WIDTH = separator.FULL_WIDTH_COLON


@dataclass(frozen=True)
class Located:
    """A finding at its 1-based line and column (0 when the column is not known)."""

    line: int
    column: int
    finding: Finding


def report(at: Located, sink: Sink) -> None:
    """Report a syntax module's finding at its place, a warning or an error as it says."""
    finding = at.finding
    severity = Severity.WARNING if finding.is_warning else Severity.ERROR
    sink.report(severity, at.line, finding.message, column=at.column, code=finding.code)


def near_misses(
    children: Sequence[Token], first_line: int, lines: Sequence[str], where: str = ""
) -> list[Located]:
    """Every near miss in one paragraph's inline tokens, starting at ``first_line``.

    ``where`` ends the separator rules' messages (``separator.IN_LIST_ITEM`` for
    a list item's paragraph).
    """
    labelled = _may_hold_habit(children)
    if not labelled and not any(_may_hold_near_miss(token) for token in children):
        return []  # the common case: no rule below could find anything
    locator = Locator(lines)
    found: list[Located] = []
    paragraph = inline_lines(children, first_line)
    masked_lines: list[str] = []
    for line, tokens in paragraph:
        for token in tokens:
            if token.type == "text" or token.type in _MATH_TYPES:
                # Findings come in order: count the newlines once, not from 0 for each.
                at, counted = line, 0
                for finding in cloze.near_misses(token.content):
                    at += token.content.count("\n", counted, finding.start)
                    counted = finding.start
                    found.append(locator.locate(at, finding))
        colons = _may_hold_colons(tokens)
        masked_lines.append(masked_line(tokens) if labelled or colons else "")
        if not colons:
            continue  # neither rule below could find anything on this line
        masked = masked_lines[-1]
        findings = mark.near_misses(masked)
        if any(separator.matches(masked)):
            findings += separator.fence_after(masked)
        else:
            findings += separator.near_misses(masked, where) + habits.near_misses(masked, where)
        located = (locator.locate(line, finding) for finding in findings)
        found.extend(at for at in located if not _escaped(at, lines))
    if labelled and _holds_no_item(children, masked_lines):
        following = _following_line(lines, paragraph[-1][0])
        for index, finding in habits.paragraph_near_misses(masked_lines, following, where):
            found.append(locator.locate(paragraph[index][0], finding))
    return sorted(found, key=lambda f: (f.line, f.column))


def fences_after_in_code(fence: Token, lines: Sequence[str]) -> list[Located]:
    """AG147 on the lines of a code block opened by a fence that was written to close one
    after ``:::`` (which opened none): they are the author's markdown, not code."""
    if fence.map is None or separator.SEPARATOR not in fence.content:
        return []
    found: list[Located] = []
    for number in range(fence.map[0] + 2, fence.map[1] + 1):
        text = lines[number - 1] if number <= len(lines) else ""
        found += [Located(number, f.start + 1, f) for f in separator.fence_after(text)]
    return found


def _escaped(at: Located, lines: Sequence[str]) -> bool:
    """True for a separator or mark near miss the source escapes (``\\==``, ``a\\:::b``)
    or spells otherwise: the author wrote it to be shown as it is.

    Parsing drops the backslash of an escape, so the text of ``\\==mode``
    reads ``==mode``: only the source line tells the author's escape apart.
    """
    source = lines[at.line - 1] if 0 < at.line <= len(lines) else ""
    if at.column == 0:
        # Not found as it reads: escaped inside (``=\\=mode``) when the source has it once
        # its backslashes are gone; else written otherwise (markup inside), still reported.
        return at.finding.snippet in source.replace("\\", "")
    before = source[: at.column - 1]
    return (len(before) - len(before.rstrip("\\"))) % 2 == 1


def _may_hold_near_miss(token: Token) -> bool:
    """False when no rule can find anything in ``token``.

    Each needs ``{``, ``::``, ``: :``, ``==`` or a full-width colon.
    """
    if token.type != "text" and token.type not in _MATH_TYPES:
        return False
    content = token.content
    return "{" in content or _holds_colons(content) or habits.may_hold(content)


def _may_hold_colons(tokens: Sequence[Token]) -> bool:
    """False when a line's text holds nothing the separator, habit or mark rules read."""
    return any(
        t.type == "text" and (_holds_colons(t.content) or habits.may_hold(t.content))
        for t in tokens
    )


def _holds_colons(text: str) -> bool:
    """True when ``text`` holds what the separator and mark rules look for first."""
    return "::" in text or "==" in text or ": :" in text or _FULL_WIDTH in text


def _may_hold_habit(children: Sequence[Token]) -> bool:
    """True when a paragraph may hold a ``?`` line or a ``Q:`` label (other tools' habits)."""
    for token in children:
        if token.type != "text":
            continue
        text = token.content.lstrip()
        if text.rstrip() in habits.LINE_HABITS or habits.opens_with_label(text):
            return True
    return False


def _holds_no_item(children: Sequence[Token], masked_lines: Sequence[str]) -> bool:
    """True when a paragraph has no separator and no cloze: it would make no card."""
    if any(any(separator.matches(text)) for text in masked_lines):
        return False
    return not any(t.type == "text" and cloze.spans(t.content) for t in children)


def _following_line(lines: Sequence[str], last_line: int) -> str:
    """The first line after line ``last_line`` that holds more than white space and ``>``."""
    for text in lines[last_line : last_line + 50]:
        if text.strip(" \t>"):
            return text
    return ""


def inline_lines(children: Sequence[Token], first_line: int) -> list[tuple[int, list[Token]]]:
    """The tokens of each source line, with the line's number."""
    out: list[tuple[int, list[Token]]] = [(first_line, [])]
    line = first_line
    for child in children:
        if child.type in BREAKS:
            line += 1
            out.append((line, []))
            continue
        out[-1][1].append(child)
        if child.type in _MATH_TYPES:
            line += child.content.count("\n")
    return out


def masked_line(tokens: Sequence[Token]) -> str:
    """A line's text as the separator and mark rules read it: only plain text, clozes masked."""
    text = "".join(_unescaped(t) if t.type == "text" else _MASK for t in tokens)
    pieces, kept = [], 0
    for start, end in cloze.spans(text):  # in order: one pass, not a copy per cloze
        pieces += [text[kept:start], _MASK * (end - start)]
        kept = end
    return "".join([*pieces, text[kept:]])


def _unescaped(text: Token) -> str:
    """A text token's content with each colon its author escaped (``\\:``) masked."""
    content = text.content
    for at in token_meta.escaped_colons(text):
        content = f"{content[:at]}{_MASK}{content[at + 1 :]}"
    return content


class Locator:
    """Finds each finding's column by its snippet in the source line, left to right.

    Offsets into token text are not source columns (markup and escapes are
    gone), so the snippet, written as it is in the source, is searched for.
    """

    def __init__(self, lines: Sequence[str]) -> None:
        self._lines = lines
        self._cursor: dict[tuple[int, str], int] = {}

    def locate(self, line: int, finding: Finding) -> Located:
        """The finding at ``line``, at the next place its snippet is written there."""
        source = self._lines[line - 1] if 0 < line <= len(self._lines) else ""
        key = (line, finding.snippet)
        index = -1
        if finding.lead:
            index = source.find(finding.lead + finding.snippet, self._cursor.get(key, 0))
            index += len(finding.lead) if index >= 0 else 0
        if index < 0:
            index = source.find(finding.snippet, self._cursor.get(key, 0))
        if index < 0:
            return Located(line, 0, finding)
        self._cursor[key] = index + len(finding.snippet)
        return Located(line, index + 1, finding)
