"""TeX syntax, shared by both math modes: tokens, braces, environments, clozes, rewrites.

Clozes in a formula are stripped, turned into gaps, or marked per card in
``\\class{cloze}`` (mathjax mode) or the cloze colour (image mode); cloze
syntax itself is read by ``ankigen.syntax.cloze`` alone.

Nothing here draws anything or decides what is allowed (that is
``_tex_policy``). The tokenizer knows just enough TeX to check braces and
environments, to find the commands a formula uses, and to rewrite ``\\tag``
for an image token by token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ankigen.diagnostics import Code
from ankigen.syntax import cloze as cloze_syntax
from ankigen.syntax.cloze import Cloze, ClozeSyntaxError

__all__ = ["Cloze", "ClozeSyntaxError", "find_clozes"]

#: One TeX token: a control word, a control symbol, or one other character.
_TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|\\$|.", re.S)


def tokens(tex: str) -> list[str]:
    """Split TeX into tokens (control words keep a trailing ``*``, as in ``\\operatorname*``)."""
    return _TOKEN.findall(tex)


def commands(tex: str) -> list[str]:
    """The control words of ``tex`` in order of appearance (``\\frac``, ``\\alpha``...)."""
    return [t for t in tokens(tex) if len(t) > 1 and t[0] == "\\" and t[1].isalpha()]


def environments(tex: str) -> list[str]:
    """The names of the environments ``tex`` opens with ``\\begin{name}``, in order.

    A ``\\begin`` without a name in braces counts as the empty name.
    """
    toks = tokens(tex)
    return [_group_arg(toks, i + 1)[0] or "" for i, tok in enumerate(toks) if tok == "\\begin"]


def brace_depth(tex: str) -> int:
    """How deep ``{`` groups nest in ``tex`` (0 when it has none); escapes are not special."""
    depth = deepest = 0
    for char in tex:
        if char == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "}":
            depth -= 1
    return deepest


@dataclass(frozen=True)
class TexProblem:
    """Why a formula cannot reach a card: the message, and its diagnostic code."""

    message: str
    code: str


def brace_problem(tex: str) -> TexProblem | None:
    """The problem when braces or ``\\begin``/``\\end`` do not pair up, else None."""
    depth = 0
    envs: list[str] = []
    toks = tokens(tex)
    i = 0
    while i < len(toks):
        t = toks[i]
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            if depth < 0:
                return _unbalanced("a '}' has no matching '{'")
        elif t in ("\\begin", "\\end"):
            name, used = _group_arg(toks, i + 1)
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
            i += used
        i += 1
    if depth > 0:
        return _unbalanced("a '{' is never closed")
    if envs:
        return _unpaired(f"\\begin{{{envs[-1]}}} is never closed by \\end{{{envs[-1]}}}")
    return None


def _unbalanced(which: str) -> TexProblem:
    return TexProblem(f"unbalanced braces: {which}", Code.UNBALANCED_BRACES)


def _unpaired(message: str) -> TexProblem:
    """A ``\\begin`` or ``\\end`` without its name, or without its partner."""
    return TexProblem(message, Code.UNPAIRED_ENVIRONMENT)


def _group_arg(toks: list[str], start: int) -> tuple[str | None, int]:
    """Read ``{name}`` at ``toks[start]`` (spaces skipped): the name and tokens consumed."""
    i = start
    while i < len(toks) and toks[i].isspace():
        i += 1
    if i >= len(toks) or toks[i] != "{":
        return None, 0
    j = i + 1
    parts: list[str] = []
    while j < len(toks) and toks[j] != "}":
        if toks[j] == "{":
            return None, 0
        parts.append(toks[j])
        j += 1
    if j >= len(toks):
        return None, 0
    return "".join(parts).strip(), j - start + 1


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
    toks = tokens(tex)
    out: list[str] = []
    i = 0
    while i < len(toks):
        label, used = _tag_label(toks, i)
        if label is None:
            out.append(toks[i])
            i += 1
            continue
        shown = label if toks[i] == "\\tag*" else f"({label})"
        out.append("\\qquad\\text{" + shown + "}")
        i += used
    return "".join(out)


def _tag_label(toks: list[str], start: int) -> tuple[str | None, int]:
    """The label of a ``\\tag{...}`` at ``toks[start]`` and the tokens it takes, or (None, 0)."""
    if toks[start] not in ("\\tag", "\\tag*"):
        return None, 0
    i = start + 1
    while i < len(toks) and toks[i].isspace():
        i += 1
    if i >= len(toks) or toks[i] != "{":
        return None, 0
    depth = 0
    for j in range(i, len(toks)):
        depth += {"{": 1, "}": -1}.get(toks[j], 0)
        if depth == 0:
            return "".join(toks[i + 1 : j]), j - start + 1
    return None, 0


def cloze_proof(tex: str) -> str:
    """``tex`` with a space in every ``{{``, ``}}`` and ``::``, which math mode ignores."""
    return _CLOZE_PAIR.sub(r"\1 ", tex)
