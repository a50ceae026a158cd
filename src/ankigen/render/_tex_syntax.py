"""TeX rewrites for the cards, shared by both math modes: checks with codes, clozes, ``\\tag``.

Clozes in a formula are stripped, turned into gaps, or marked per card in
``\\class{cloze}`` (mathjax mode) or the cloze colour (image mode); cloze
syntax itself is read by ``ankigen.syntax.cloze`` alone. TeX is split into
tokens and its braces are matched by ``ankigen.syntax.tex`` alone.

Nothing here draws anything or decides what is allowed (that is
``_tex_policy``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ankigen.diagnostics import Code
from ankigen.syntax import cloze as cloze_syntax
from ankigen.syntax import tex as syntax_tex
from ankigen.syntax.cloze import Cloze, ClozeSyntaxError
from ankigen.syntax.tex import tokens

__all__ = ["Cloze", "ClozeSyntaxError", "find_clozes", "tokens"]


def environments(tex: str) -> list[str]:
    """The names of the environments ``tex`` opens with ``\\begin{name}``, in order.

    A ``\\begin`` without a name in braces counts as the empty name.
    """
    if "\\begin" not in tex:
        return []  # most formulas: no token can be \begin, no need to read them
    return [
        _environment_name(tex, match.end()) or ""
        for match in syntax_tex.token_spans(tex)
        if match.group() == "\\begin"
    ]


@dataclass(frozen=True)
class TexProblem:
    """Why a formula cannot reach a card: the message, and its diagnostic code."""

    message: str
    code: str


def brace_problem(tex: str) -> TexProblem | None:
    """The problem when braces or ``\\begin``/``\\end`` do not pair up, else None."""
    depth = 0
    envs: list[str] = []
    resume = 0
    for match in syntax_tex.token_spans(tex):
        t = match.group()
        if match.start() < resume:  # inside an environment's name, read already
            continue
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            if depth < 0:
                return _unbalanced("a '}' has no matching '{'")
        elif t in ("\\begin", "\\end"):
            name = _environment_name(tex, match.end())
            if name is None:
                return _unpaired(f"{t} without an environment name in braces")
            if t == "\\begin":
                envs.append(name)
            elif not envs:
                return _unpaired(f"\\end{{{name}}} without \\begin{{{name}}}")
            elif envs[-1] != name:
                return _unpaired(f"\\begin{{{envs[-1]}}} is closed by \\end{{{name}}}")
            else:
                envs.pop()
            resume = _environment_end(tex, match.end())
    if depth > 0:
        return _unbalanced("a '{' is never closed")
    if envs:
        return _unpaired(f"\\begin{{{envs[-1]}}} is never closed by \\end{{{envs[-1]}}}")
    return None


def _unbalanced(which: str) -> TexProblem:
    return TexProblem(Code.UNBALANCED_BRACES.message(which=which), Code.UNBALANCED_BRACES)


def _unpaired(message: str) -> TexProblem:
    """A ``\\begin`` or ``\\end`` without its name, or without its partner."""
    return TexProblem(Code.UNPAIRED_ENVIRONMENT.message(detail=message), Code.UNPAIRED_ENVIRONMENT)


def _environment_name(tex: str, at: int) -> str | None:
    """The name in ``{name}`` at ``tex[at:]`` (spaces skipped), or None: no group, or one
    with a group inside."""
    group = syntax_tex.group_at(tex, at)
    if group is None or "{" in tokens(group[0]):
        return None
    return group[0].strip()


def _environment_end(tex: str, at: int) -> int:
    """The index after the ``{name}`` of an environment, read by :func:`_environment_name`."""
    group = syntax_tex.group_at(tex, at)
    return group[1] if group is not None else at


# --- clozes -----------------------------------------------------------------
# Cloze syntax is read by ankigen.syntax.cloze alone; these names keep render's callers short.

find_clozes = cloze_syntax.find_in_math


def strip_clozes(tex: str, clozes: list[Cloze], hide: int | None = None) -> str:
    """``tex`` with each cloze's marker removed; clozes numbered ``hide`` become gaps.

    Each hidden occurrence shows its own hint, as Anki does.
    """
    parts: list[str] = []
    last = 0
    for c in clozes:
        parts.append(tex[last : c.start])
        if c.number == hide:
            parts.append("{" + gap_tex(c.hint) + "}")  # a group: ^ and _ take the whole gap
        else:
            parts.append(c.text)
        last = c.end
    parts.append(tex[last:])
    return "".join(parts)


def gap_tex(hint: str | None) -> str:
    """The TeX drawn where a hidden cloze stands: ``[...]`` or ``[hint]``, as Anki shows it.

    The hint is plain text (this TeX is the gap image's ``alt`` text).
    """
    if hint is None or not hint.strip():
        return r"[\ldots]"
    safe = "".join("\\" + ch if ch in "\\{}$" else ch for ch in hint.strip())
    return r"[\text{" + safe + "}]"


#: What ankigen (never an author: the allow-list refuses ``\\class``) wraps a
#: clozed part of a formula in for Anki's MathJax, so that card.css's
#: ``.cloze`` rule colours it as it colours a text cloze.
CLOZE_CLASS = r"\class{cloze}"
#: A hint MathJax can show in ``\\text{}`` as written (``$`` would open math there).
_HINT_AS_TEXT = re.compile(r"[^\\{}$%]+")
#: Characters Anki's cloze parser reads in pairs (``{{c1::``, ``::``, ``}}``).
_CLOZE_PAIR = re.compile(r"([{}:])(?=\1)")


def mathjax_marked(
    tex: str, clozes: list[Cloze], number: int, *, hide: bool, mark: str = CLOZE_CLASS + "{%s}"
) -> str:
    """TeX for MathJax with cloze ``number`` marked: in the cloze class, or ``mark``.

    ``mark`` is TeX with one ``%s`` where the marked part goes (image mode
    draws it in the cloze colour instead of a class).

    With ``hide`` its gap (``[...]``, ``[hint]``) stands there, else its text
    (left plain when it cannot stand as one group, such as ``a & b`` in an
    ``aligned`` row); the other clozes show their text. The result holds no
    ``{{``, ``}}`` or ``::`` (see :func:`cloze_proof`): it can stand in a cloze.
    """
    parts: list[str] = []
    last = 0
    for c in clozes:
        parts.append(tex[last : c.start])
        if c.number != number or not (hide or _one_group(c.text)):
            parts.append(c.text)
        else:
            parts.append(mark.replace("%s", _mathjax_gap(c.hint) if hide else c.text, 1))
        last = c.end
    parts.append(tex[last:])
    return cloze_proof("".join(parts))


def mathjax_cloze_tex(tex: str) -> tuple[str, dict[int, str], dict[int, str]]:
    """A clozed formula's TeX for Anki's MathJax: the whole, and per number its front and back."""
    clozes = find_clozes(tex)
    numbers = sorted({c.number for c in clozes})
    whole = cloze_proof(strip_clozes(tex, clozes))
    fronts = {n: mathjax_marked(tex, clozes, n, hide=True) for n in numbers}
    return whole, fronts, {n: mathjax_marked(tex, clozes, n, hide=False) for n in numbers}


def _one_group(tex: str) -> bool:
    """True when ``tex`` can stand as one MathJax argument (no ``&``, ``\\\\``, half a pair)."""
    toks = tokens(tex)
    pairs = [("\\left", "\\right"), ("\\begin", "\\end")]
    if "&" in toks or "\\\\" in toks or ("\\middle" in toks and "\\left" not in toks):
        return False
    return all(toks.count(opener) == toks.count(closer) for opener, closer in pairs)


def _mathjax_gap(hint: str | None) -> str:
    """The gap as Anki's MathJax shows it: a hint as text when it can be, else as TeX."""
    if hint is None or not hint.strip():
        return r"[\ldots]"
    if _HINT_AS_TEXT.fullmatch(hint.strip()):
        return r"[\text{" + hint.strip() + "}]"
    return "[" + hint + "]"  # TeX in a hint (checked with the formula) stays TeX, as in Anki


def tags_as_text(tex: str) -> str:
    """``\\tag{x}`` as ``\\qquad\\text{(x)}`` and ``\\tag*{x}`` as ``\\qquad\\text{x}``.

    MathJax sets a tag at the right edge of a box as wide as the page; an image
    has no page, so the tag follows its row after a ``\\qquad`` instead.
    """
    out: list[str] = []
    resume = 0
    for match in syntax_tex.token_spans(tex):
        if match.start() < resume:  # inside a tag's label, written already
            continue
        label = _tag_label(tex, match)
        if label is None:
            out.append(match.group())
            continue
        text, resume = label
        shown = text if match.group() == "\\tag*" else f"({text})"
        out.append("\\qquad\\text{" + shown + "}")
    return "".join(out)


def _tag_label(tex: str, match: re.Match[str]) -> tuple[str, int] | None:
    """The label of a ``\\tag{...}`` token and the index after its ``}``, or None."""
    if match.group() not in ("\\tag", "\\tag*"):
        return None
    return syntax_tex.group_at(tex, match.end())


def nested_fractions_displayed(tex: str) -> str:
    """``tex`` with each ``\\frac`` that holds another ``\\frac`` written ``\\dfrac``.

    In an inline formula a fraction's parts are set at script size (71%), and
    a fraction inside them at script-script size (50%): a card's nested
    numerator came out about 6 px tall (issue 24). Setting the outer fraction
    in display style keeps every level one step larger, as a display formula
    draws it; a fraction alone, or under a script, is left as written.
    """
    out: list[str] = []
    for match in syntax_tex.token_spans(tex):
        token = match.group()
        if token == "\\frac":
            end = syntax_tex.argument_end(tex, syntax_tex.argument_end(tex, match.end()))
            if "\\frac" in tokens(tex[match.end() : end]):
                token = "\\dfrac"
        out.append(token)
    return "".join(out)


def cloze_proof(tex: str) -> str:
    """``tex`` with a space in every ``{{``, ``}}`` and ``::``, which math mode ignores."""
    return _CLOZE_PAIR.sub(r"\1 ", tex)
