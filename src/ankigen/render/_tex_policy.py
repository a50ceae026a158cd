"""What TeX may reach a card: size limits, braces, clozes and the allow-list, with codes.

Checked the same way in both math modes (image mode draws with MathJax too),
before anything is drawn; the allow-list itself, like the tokenizer and the
brace scanner, is ``ankigen.syntax.tex``.
"""

from __future__ import annotations

from ankigen.diagnostics import Code
from ankigen.render import _tex_syntax
from ankigen.render._tex_syntax import TexProblem
from ankigen.syntax import cloze as syntax_cloze
from ankigen.syntax import tex as syntax_tex
from ankigen.syntax.tex_macros import HOW_TO_DEFINE


def tex_problem(tex: str) -> str | None:
    """Cheap syntax check used in both math modes; a message, or None when fine.

    The message of :func:`formula_problem`, for callers that need no code.
    """
    problem = formula_problem(tex)
    return problem.message if problem is not None else None


def formula_problem(tex: str) -> TexProblem | None:
    """Why ``tex`` may not reach a card (message and diagnostic code), or None when fine.

    Finds a formula over the size limits, unbalanced braces, ``\\begin``/``\\end``
    mismatches, a cloze with no number or nothing in it, and a cloze whose TeX
    ends in ``}`` without a space before the closing ``}}`` (Anki needs
    ``{{c1::\\frac{a}{b} }}``). Every command and environment must be on the
    allow-list of ``ankigen.syntax.tex``, since MathJax (Anki's, or the one that
    draws images) obeys what it is given.
    """
    limit = _limit_problem(tex)
    if limit is not None:
        return limit
    try:
        clozes = _tex_syntax.find_clozes(tex)
    except _tex_syntax.ClozeSyntaxError as exc:
        return TexProblem(str(exc), exc.finding.code)
    if not tex.strip():
        return TexProblem(Code.EMPTY_FORMULA.message(), Code.EMPTY_FORMULA)
    shown = _tex_syntax.strip_clozes(tex, clozes)
    unpaired = _tex_syntax.brace_problem(shown)
    if unpaired is not None:
        return unpaired
    refused = refused_command(tex)
    if refused is None and clozes:
        # The TeX a card ships has no cloze markers: a cloze between two letters joins
        # them (`\le{{c1::t}}` is `\let`), so what MathJax obeys is judged too.
        joined = refused_command(shown)
        refused = None if joined is None else f"{joined} ({_JOINED})"
    if refused is not None:
        return TexProblem(
            Code.TEX_COMMAND_REFUSED.message(detail=refused), Code.TEX_COMMAND_REFUSED
        )
    return None


#: Why a formula whose own commands are all allowed is refused once its clozes go.
_JOINED = (
    "the name is made where a cloze meets the letters beside it, once the cloze's "
    "markers are removed as they are on the card: put a space between the command "
    f"and the cloze, as in '\\le {syntax_cloze.written(1, 't')}'"
)


def refused_command(tex: str) -> str | None:
    """Why a command or environment of ``tex`` may not reach a card, or None.

    Commands that link, style, load or define (deny-list), ``\\(``, ``\\)``,
    ``\\[``, ``\\]``, and anything else off the allow-list.
    """
    for token in syntax_tex.tokens(tex):
        if token[0] != "\\":
            continue  # one character: neither a delimiter symbol nor a command (most tokens)
        if token in syntax_tex.DELIMITER_SYMBOLS:
            return (
                f"'{token}' is not allowed in a formula: it would end Anki's MathJax "
                "delimiters early; write '(' or '[' for a bracket"
            )
        if not syntax_tex.is_control_word(token):
            continue
        word = token.rstrip("*")
        if syntax_tex.is_dangerous(word):
            return (
                f"{token} is not allowed in a formula: it could put a link, style "
                "or script on the card, define or redefine a command, or make Anki's "
                "MathJax loop"
            )
        if word[1:] in syntax_tex.REPLACED:
            return f"{token} is not defined in MathJax 3: {syntax_tex.REPLACED[word[1:]]}"
        if word[1:] not in syntax_tex.COMMANDS:
            return (
                f"{token} is not a command ankigen draws (the standard math commands "
                f"listed by 'ankigen guide 16'): use one of them, or {HOW_TO_DEFINE}"
            )
    return _refused_environment(tex)


def _refused_environment(tex: str) -> str | None:
    for name in _tex_syntax.environments(tex):
        if name.rstrip("*") not in syntax_tex.ENVIRONMENTS:
            return (
                f"\\begin{{{name}}} is not an environment ankigen passes to MathJax; "
                f"use one of {', '.join(sorted(syntax_tex.ENVIRONMENTS))}"
            )
    return None


#: Formulas past these sizes are refused before any parser sees them: they
#: would take MathJax seconds and megabytes to draw, and no card needs them.
MAX_FORMULA_CHARS = 4000
MAX_BRACE_DEPTH = 40


def _limit_problem(tex: str) -> TexProblem | None:
    if len(tex) > MAX_FORMULA_CHARS:
        message = Code.FORMULA_TOO_LONG.message(length=len(tex), most=MAX_FORMULA_CHARS)
        return TexProblem(message, Code.FORMULA_TOO_LONG)
    deepest = syntax_tex.brace_depth(tex)
    if deepest > MAX_BRACE_DEPTH:
        message = Code.FORMULA_BRACES_TOO_DEEP.message(depth=deepest, most=MAX_BRACE_DEPTH)
        return TexProblem(message, Code.FORMULA_BRACES_TOO_DEEP)
    return None
