"""The light half of formula handling: checks, cloze variants and ``<img>`` HTML.

Nothing here imports matplotlib, so validating formulas in both math modes,
and a warm rebuild whose images all come from the cache, stay fast. Drawing
lives in ``ankigen.render.formula``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib.metadata import version

from markdown_it.common.utils import escapeHtml

from ankigen import anki_markup
from ankigen.render import _tex, tex_allowed

#: Font size formulas are drawn at, in points; every size is reported relative to it.
DRAW_SIZE = 100.0
#: mathtext's STIX fontset: a serif math face like the TeX fonts Anki's MathJax
#: draws, of the same family as the fallback renderer's STIX Two Math, and its
#: root sign joins its bar (DejaVu's leaves a gap). Figures keep DejaVu Sans.
FONTSET = "stix"

#: Formula em per text em. STIX's x-height is about 0.45 em, the card's sans
#: serif text's about 0.53 em: drawn 1.2 times larger, a formula's letters
#: match the text's, as MathJax matches them (its matchFontHeight).
MATH_SCALE = 1.2

#: Everything that changes the bytes of an image: part of the media name hash.
RENDER_SETTINGS = (
    f"formula/v2 matplotlib={version('matplotlib')} fontset={FONTSET} size={DRAW_SIZE:g} "
    f"scale={MATH_SCALE:g} "
    f"ziamath={version('ziamath')}"
)


class FormulaError(Exception):
    """TeX that cannot be drawn; str() says which construct failed."""


@dataclass(frozen=True)
class RenderedFormula:
    """One formula as an SVG image, with sizes in em of the surrounding text.

    ``height_em`` is the whole image height; ``depth_em`` is the part below the
    baseline, so ``vertical-align: -{depth_em}em`` puts the baseline on the text's.
    ``renderer`` says which engine drew it (``mathtext`` or ``ziamath``).
    """

    svg: bytes
    width_em: float
    height_em: float
    depth_em: float
    renderer: str = "mathtext"


@dataclass(frozen=True)
class ClozeVariants:
    """The TeX variants of a formula holding clozes.

    ``back`` shows every cloze's content; ``fronts[n]`` hides cloze ``n`` behind
    a visible gap (``[...]`` or ``[hint]``) and shows the others. ``gaps[n]``
    is the TeX of each gap of cloze ``n`` and ``revealed[n]`` that of what it
    hides, the parts drawn in the cloze colour on card ``n``.
    """

    back: str
    fronts: dict[int, str] = field(default_factory=dict)
    gaps: dict[int, tuple[str, ...]] = field(default_factory=dict)
    revealed: dict[int, tuple[str, ...]] = field(default_factory=dict)


# --- checks and clozes ------------------------------------------------------


def tex_problem(tex: str, *, mathjax: bool = False) -> str | None:
    """Cheap syntax check used in both math modes; a message, or None when fine.

    Finds unbalanced braces, ``\\begin``/``\\end`` mismatches, a cloze with no
    number or nothing in it, and a cloze whose TeX ends in ``}`` without a space
    before the closing ``}}`` (Anki needs ``{{c1::\\frac{a}{b} }}``). With
    ``mathjax``, every command and environment must be on the allow-list of
    ``ankigen.render.tex_allowed``, since Anki's MathJax obeys what it is given.
    """
    limit = _limit_problem(tex)
    if limit is not None:
        return limit
    try:
        clozes = _tex.find_clozes(tex)
    except _tex.ClozeSyntaxError as exc:
        return str(exc)
    if not tex.strip():
        return "empty formula"
    refused = refused_command(tex, mathjax=mathjax)
    if refused is not None:
        return refused
    return _tex.brace_problem(_tex.strip_clozes(tex, clozes))


def refused_command(tex: str, *, mathjax: bool) -> str | None:
    """Why a command or environment of ``tex`` may not reach a card, or None.

    In both modes: commands that link, style, load or define (deny-list), and
    ``\\(``, ``\\)``, ``\\[``, ``\\]``; with ``mathjax``, anything off the allow-list.
    """
    for token in _tex.tokens(tex):
        if token in tex_allowed.DELIMITER_SYMBOLS:
            return (
                f"'{token}' is not allowed in a formula: it would end Anki's MathJax "
                "delimiters early; write '(' or '[' for a bracket"
            )
        if len(token) < 2 or token[0] != "\\" or not token[1].isalpha():
            continue
        word = token.rstrip("*")
        if _is_refused(word):
            return (
                f"{token} is not allowed in a formula: it could put a link, style "
                "or script on the card, define or redefine a command, or make Anki's "
                "MathJax loop"
            )
        if mathjax and word[1:] not in tex_allowed.COMMANDS:
            return (
                f"{token} is not a command ankigen passes to MathJax (math: mathjax "
                "allows the math commands listed in docs/format.md): use a standard "
                "command, or math: image"
            )
    if mathjax:
        return _refused_environment(tex)
    return None


def _refused_environment(tex: str) -> str | None:
    for name in _ENVIRONMENT.findall(tex):
        if name.strip().rstrip("*") not in tex_allowed.ENVIRONMENTS:
            return (
                f"\\begin{{{name}}} is not an environment ankigen passes to MathJax; "
                f"use one of {', '.join(sorted(tex_allowed.ENVIRONMENTS))}"
            )
    return None


_ENVIRONMENT = re.compile(r"\\begin\s*\{([^{}]*)\}")


#: Formulas past these sizes are refused before any parser sees them: they
#: would take mathtext minutes or exhaust its recursion, and no card needs them.
MAX_FORMULA_CHARS = 4000
MAX_BRACE_DEPTH = 40

#: MathJax commands that reach outside the formula (links, HTML attributes,
#: styles, extensions) or define macros (which can recurse forever). Content
#: is untrusted, and in mathjax mode Anki's MathJax would obey them.
_REFUSED = frozenset(
    {
        "\\href",
        "\\url",
        "\\require",
        "\\class",
        "\\cssId",
        "\\style",
        "\\unicode",
        "\\def",
        "\\gdef",
        "\\edef",
        "\\xdef",
        "\\let",
        "\\newcommand",
        "\\renewcommand",
        "\\providecommand",
        "\\DeclareMathOperator",
        "\\DeclarePairedDelimiter",
        "\\Newextarrow",
        "\\newextarrow",
        "\\newenvironment",
        "\\renewenvironment",
        "\\futurelet",
        "\\global",
        "\\mathchoice",
        "\\csname",
        "\\expandafter",
        "\\input",
        "\\include",
        "\\catcode",
        "\\data",
        "\\bbox",
        "\\mmlToken",
        "\\texttip",
        "\\mathtip",
        "\\toggle",
    }
)


def _is_refused(command: str) -> bool:
    """Deny-list for both modes; ``command`` without a trailing ``*``."""
    lowered = command.lower()
    return (
        command in _REFUSED
        or lowered.startswith(("\\html", "\\new", "\\renew", "\\declare", "\\provide"))
        or lowered.endswith("def")
    )


def _limit_problem(tex: str) -> str | None:
    if len(tex) > MAX_FORMULA_CHARS:
        return (
            f"formula is too long ({len(tex):,} characters; at most "
            f"{MAX_FORMULA_CHARS:,}): split it up"
        )
    depth = deepest = 0
    for char in tex:
        if char == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "}":
            depth -= 1
    if deepest > MAX_BRACE_DEPTH:
        return f"formula nests braces {deepest} deep (at most {MAX_BRACE_DEPTH})"
    return None


def cloze_variants(tex: str) -> ClozeVariants:
    """Split TeX holding ``{{cN::x}}`` / ``{{cN::x::hint}}`` into its back and front TeX.

    Raises FormulaError for cloze syntax ``tex_problem`` reports.
    """
    try:
        clozes = _tex.find_clozes(tex)
    except _tex.ClozeSyntaxError as exc:
        raise FormulaError(str(exc)) from None
    back = _tex.strip_clozes(tex, clozes)
    numbers = sorted({c.number for c in clozes})
    return ClozeVariants(
        back=back,
        fronts={n: _tex.strip_clozes(tex, clozes, hide=n) for n in numbers},
        gaps={n: tuple(_tex.gap_tex(c.hint) for c in clozes if c.number == n) for n in numbers},
        revealed={n: tuple(c.text for c in clozes if c.number == n) for n in numbers},
    )


def mathjax_html(tex: str, *, display: bool, cloze: bool = False) -> str:
    """Field HTML for a formula in mathjax mode: ``\\(...\\)`` or ``\\[...\\]``.

    With ``cloze``: Anki strips every tag inside ``\\(...\\)``, so each card gets
    whole formulas (``math_cloze_html``) whose cloze part is in ``\\class{cloze}``.
    """
    if cloze:
        whole, fronts, backs = _tex.mathjax_cloze_tex(tex)

        def span(part: str) -> str:
            return f'<span class="ag-mf">{mathjax_html(part, display=display)}</span>'

        front_spans, back_spans = ({n: span(t) for n, t in ts.items()} for ts in (fronts, backs))
        return math_cloze_html(span(whole), front_spans, back_spans)
    # MathJax reads `&#91;` as `[`; Anki's sound and LaTeX parsers do not.
    delimited = f"\\[{tex}\\]" if display else f"\\({tex}\\)"
    return anki_markup.inert_commands(escapeHtml(delimited))


def _attr(text: str) -> str:
    """Escape for an HTML attribute that Anki's cloze and command parsers read nothing in."""
    return anki_markup.attribute(text)


def formula_img_html(src: str, rendered: RenderedFormula, *, display: bool, alt: str) -> str:
    """The ``<img>`` tag for a rendered formula, sized in em and set on the baseline.

    ``alt`` (usually the TeX) is escaped so it can stand inside a cloze.
    """
    cls = "ag-math ag-display" if display else "ag-math"
    style = f"width:{rendered.width_em:.3f}em"
    if not display:
        style += f";vertical-align:{-rendered.depth_em:.3f}em"
    return f'<img class="{cls}" src="{_attr(src)}" alt="{_attr(alt)}" style="{style}">'


def math_cloze_html(
    back_img: str, fronts: dict[int, str], backs: dict[int, str] | None = None
) -> str:
    """Field HTML for a clozed formula from its ``<img>`` tags (or mathjax-mode spans).

    ``back_img`` shows the whole formula; ``fronts[n]`` it with cloze ``n``
    hidden; ``backs[n]`` (default ``back_img``) it with cloze ``n``'s part
    highlighted. Each number gets one Anki cloze (text: its back, hint: its
    front), so card ``n``'s front holds ``[<front n>]`` in a ``.cloze`` span;
    card.css hides the brackets and each ``.cloze-inactive`` copy; the
    ``.ag-mc-all`` copy shows on cards of other numbers.
    """
    backs = backs or {}
    for tag in (back_img, *fronts.values(), *backs.values()):
        if "}}" in tag or "::" in tag or "{{" in tag:
            raise ValueError("image HTML inside a cloze must not hold '{{', '}}' or '::'")
    parts = ['<span class="ag-mc">']
    parts += [f"{{{{c{n}::{backs.get(n, back_img)}::{fronts[n]}}}}}" for n in sorted(fronts)]
    parts.append(f'<span class="ag-mc-all">{back_img}</span></span>')
    return "".join(parts)
