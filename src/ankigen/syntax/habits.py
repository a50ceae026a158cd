"""Other tools' marks of a card, which ankigen reads as text (format §13.1).

A paragraph without a separator is asked :func:`paragraph_near_misses` for
a card written as labels (``Q:``/``A:`` lines, ``Q.``, ``Q1:``, ``Q\uff1a``) or
split by a line of only ``?`` (Obsidian) or ``%`` (ankdown); a line without
one :func:`near_misses` for a separator of another tool. RemNote writes
``Front >> Back`` and ``Concept ;; Descriptor``, a Quizlet export
``term<TAB>definition``, Logseq ``question #card`` with the answer below it.
Pasted into a bank, each line is text of the answer before it (or of no
card): :func:`near_misses` names the habit and the ``:::`` meant, in the
author's words. It reads a line as :func:`ankigen.syntax.separator.near_misses`
does (code, math and clozes masked), and is asked only for a line that holds
no separator.

A mark counts only between words, once on its line: ``a >> b`` and
``n >> 1`` (a comparison, one letter or number on each side), ``File >>
Save >> Export`` (a menu path), a ``>>`` in code or math, a tab that indents
and a ``#card`` in the middle of a sentence stay silent.

Mochi writes a card ``Question?`` / ``---`` / ``answer``: a question
(:func:`question_line`) with a ``---`` line under it is a heading to markdown
(:func:`dash_heading`), and with blank lines around the ``---`` a thematic
break between two paragraphs (:func:`dash_break`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ankigen.diagnostics import Code
from ankigen.syntax import Finding
from ankigen.syntax.separator import SEPARATOR

OTHER_TOOL = Code.SEPARATOR_OTHER_TOOL
CARD_TAG = Code.CARD_TAG
QUESTION_ANSWER_LINES = Code.QUESTION_ANSWER_LINES
QUESTION_MARK_LINE = Code.QUESTION_MARK_LINE
DASH_HEADING = Code.QUESTION_SETEXT_HEADING
DASH_BREAK = Code.QUESTION_BREAK

_MASK = "\ufffc"
#: A separator of another tool between two pieces of text, with the tool it comes from.
_MARKS = {">>": "RemNote's card separator", ";;": "RemNote's descriptor separator"}
_MARK = re.compile(r"(?<=\S)[ \t]+(>>|;;)[ \t]+(?=\S)")
#: A TAB between two pieces of text (a Quizlet export's line: ``term<TAB>definition``).
_TAB = re.compile(r"(?<=\S)[ ]*\t[ \t]*(?=\S)")
_TAB_HABIT = "a Quizlet export's separator"
#: Logseq's tag of a card, ending the question's line.
_TAG = re.compile(r"(?<=\s)#(?:card|flashcard)[ \t]*$", re.IGNORECASE)
_TAG_HABIT = "Logseq's tag of a card"
#: What a line must hold for :func:`near_misses` to look further (the cheap test).
_TRIGGERS = (">>", ";;", "\t", "#")


def may_hold(text: str) -> bool:
    """False when no rule of this module can find anything in ``text``."""
    return any(trigger in text for trigger in _TRIGGERS)


def near_misses(line: str, where: str = "") -> list[Finding]:
    """Another tool's mark of a card on a line without a separator (warnings).

    ``where`` ends each message: empty in a paragraph,
    :data:`ankigen.syntax.separator.IN_LIST_ITEM` in a list item.
    """
    if not may_hold(line):
        return []
    mark = _mark(line) or _tab(line)
    if mark is not None:
        meant = _meant(line[: mark.start], line[mark.end :])
        written = "a TAB" if mark.snippet == "\t" else f"'{mark.snippet}'"
        message = OTHER_TOOL.message(written=written, habit=mark.habit, meant=meant, where=where)
        lead = line[: mark.at].rsplit(_MASK, 1)[-1]
        return [Finding(mark.at, mark.snippet, message, OTHER_TOOL, is_warning=True, lead=lead)]
    tag = _TAG.search(line)
    question = _shown(line[: tag.start()]) if tag else ""
    if tag is None or not _has_words(question):
        return []
    written = tag.group(0).strip()
    meant = f"{question} {SEPARATOR}"
    message = CARD_TAG.message(tag=written, habit=_TAG_HABIT, meant=meant, where=where)
    return [Finding(tag.start(), written, message, CARD_TAG, is_warning=True)]


@dataclass(frozen=True)
class _Mark:
    """Another tool's separator on a line: the text it cuts (``start``-``end``, its
    white space with it), where its ``snippet`` is written and what it is."""

    start: int
    end: int
    at: int
    snippet: str
    habit: str


def _mark(line: str) -> _Mark | None:
    """``Front >> Back`` or ``Concept ;; Descriptor``: one mark between words."""
    marks = list(_MARK.finditer(line))
    if len(marks) != 1:
        return None  # none, or a path of several ('File >> Save >> Export')
    mark = marks[0]
    before, after = line[: mark.start()], line[mark.end() :]
    if _is_comparison(before, after) or not (_has_words(before) and _has_words(after)):
        return None
    written = mark.group(1)
    return _Mark(mark.start(), mark.end(), mark.start(1), written, _MARKS[written])


def _tab(line: str) -> _Mark | None:
    """``term<TAB>definition``: the first TAB between words on the line."""
    tab = _TAB.search(line)
    if tab is None or not (_has_words(line[: tab.start()]) and _has_words(line[tab.end() :])):
        return None
    at = tab.start() + tab.group(0).index("\t")
    return _Mark(tab.start(), tab.end(), at, "\t", _TAB_HABIT)


def _is_comparison(before: str, after: str) -> bool:
    """True for ``a >> b``, ``n >> 1``, ``$x$ >> $y$``: one letter, number or formula on
    each side of the mark, as a comparison or a shift is written."""
    last = before.split()[-1] if before.split() else ""
    first = after.split()[0] if after.split() else ""
    return all(len(word) <= 1 or word.replace(".", "").isdigit() for word in (last, first))


def _has_words(text: str) -> bool:
    """True when ``text`` holds a letter or a digit outside code and math."""
    return any(c.isalnum() for c in text)


def _shown(text: str) -> str:
    """Text as a message shows it: masked tokens left out, white space collapsed."""
    return " ".join(text.replace(_MASK, "").split())


def _meant(before: str, after: str, room: int = 60) -> str:
    """The line as it was meant, ``before ::: after``, an over-long answer cut short."""
    answer = _shown(after)
    if len(answer) > room:
        answer = answer[:room].rsplit(" ", 1)[0] + " …"
    return f"{_shown(before)} {SEPARATOR} {answer}"


#: A line of only these marks separates a card's sides in another tool.
_LINE_HABITS = {
    "?": "Obsidian's mark of a multi-line card",
    "??": "Obsidian's mark of a reversed card",
    "%": "ankdown's field separator",
}
#: What a line of only one of ``_LINE_HABITS`` is (the parse stage's cheap test).
LINE_HABITS = frozenset(_LINE_HABITS)

#: The labels of a card written as labels (``Q:``/``A:``, and Anki's field names
#: ``Front:``/``Back:`` as notes copied out of it often are).
_QUESTION_LABELS = ("Q", "Question", "QUESTION", "question", "Front", "FRONT", "front")
_ANSWER_LABELS = ("A", "Answer", "ANSWER", "answer", "Back", "BACK", "back")


def _label(labels: tuple[str, ...]) -> re.Pattern[str]:
    """A line that opens with one of ``labels`` (numbered or not: ``Q:``, ``Q1:``) and a
    colon, ASCII or full width (``Q\uff1a``, from a CJK input method), or with the
    first label and a dot (``Q.``, but not the initials ``Q. E. D.``)."""
    names = "|".join(labels)
    return re.compile(
        rf"(?:{names})\d*(?::(?=[\s*_\ufffc]|$)|\uff1a)|{labels[0]}\d*\.(?=\s)(?!\s*[A-Z]\.)"
    )


#: A line that opens with a question or answer label.
_QUESTION_LABEL = _label(_QUESTION_LABELS)
_ANSWER_LABEL = _label(_ANSWER_LABELS)
#: ``A:`` later on the ``Q:`` line itself (``Q: What is x? A: y``).
_INLINE_ANSWER = re.compile(r"\s(?:A|Answer|Back):\s")


def opens_with_label(text: str) -> bool:
    """True when ``text`` opens with a question label (the parse stage's cheap test)."""
    return _QUESTION_LABEL.match(text) is not None


def paragraph_near_misses(
    lines: list[str], following: str, where: str = ""
) -> list[tuple[int, Finding]]:
    """Habits from other tools in a paragraph without a separator: (line index, warning).

    ``lines`` are the paragraph's lines as :func:`ankigen.syntax.separator.near_misses`
    reads them
    (code, math and clozes masked) and ``following`` the first line after
    it, blank lines skipped. A line of only ``?`` (or ``??``) is Obsidian's
    multi-line card, one of only ``%`` ankdown's field separator; a ``Q:``
    line with an ``A:`` line after it (in the paragraph, on the next one or on
    the ``Q:`` line) is a card written as labels. ``Note:``, ``A: red`` in a
    list of options without a ``Q:``, and a ``Q:`` with no ``A:`` are prose.
    ``where`` ends each message, as in :func:`near_misses`.
    """
    found: list[tuple[int, Finding]] = []
    for index, text in enumerate(lines):
        mark = text.strip(" \t\ufffc")
        habit = _LINE_HABITS.get(mark)
        if habit is not None:
            message = QUESTION_MARK_LINE.message(mark=mark, habit=habit, where=where)
            at = text.index(mark)
            found.append((index, Finding(at, mark, message, QUESTION_MARK_LINE, True)))
    for index, text in enumerate(lines):
        label = _QUESTION_LABEL.match(text.lstrip(" \t\ufffc"))
        if label is None:
            continue
        rest = [_lead(line) for line in lines[index + 1 :]] + [_lead(following)]
        inline = _INLINE_ANSWER.search(text)
        answers = [m for m in (_ANSWER_LABEL.match(line) for line in rest) if m]
        answer = inline.group(0).strip() if inline else answers[0].group(0) if answers else ""
        if answer:
            written = label.group(0)
            message = QUESTION_ANSWER_LINES.message(question=written, answer=answer, where=where)
            at = text.index(written)
            found.append((index, Finding(at, written, message, QUESTION_ANSWER_LINES, True)))
        break  # one warning per paragraph: its first question label
    return found


def _lead(line: str) -> str:
    """A line's text without the quote markers and masks it starts with."""
    return line.lstrip(" \t>*_\ufffc")


def question_line(text: str) -> str | None:
    """The last line of a paragraph or heading that ends in a question mark (emphasis
    around it aside), as written; None for any other text."""
    last = text.rstrip().rsplit("\n", 1)[-1].strip()
    return last if last.rstrip("*_").endswith(("?", "\uff1f")) else None


def dash_heading(question: str, underline: str) -> Finding:
    """A question with a ``---`` (or ``===``) line under it, which markdown reads as a
    heading: Mochi's card (``Question?`` / ``---`` / ``answer``). ``underline`` is the
    line as written; the finding starts at its first mark."""
    written = underline.strip()
    heading = "title" if written.startswith("=") else "section heading"
    message = DASH_HEADING.message(underline=written, question=question, heading=heading)
    return Finding(underline.index(written), written, message, DASH_HEADING, is_warning=True)


def dash_break(question: str, line: str) -> Finding:
    """A thematic break (``---``, ``***``) between a paragraph ending in ``?`` and the
    next paragraph: Mochi's card with blank lines around its separator. ``line`` is the
    break as written."""
    written = line.strip()
    message = DASH_BREAK.message(written=written, question=question)
    return Finding(line.index(written), written, message, DASH_BREAK, is_warning=True)
