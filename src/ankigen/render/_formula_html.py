"""Formula HTML: the ``<img>`` of a drawn formula, clozed formulas in image mode, MathJax TeX.

Nothing here draws: the images are named and sized by ``_math_renderer``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markdown_it.common.utils import escapeHtml

from ankigen.render import _tex_syntax
from ankigen.render._formula_image import FormulaError, RenderedFormula
from ankigen.syntax import anki_markup
from ankigen.syntax.cloze import written


@dataclass(frozen=True)
class ClozeVariants:
    """The TeX variants of a formula holding clozes.

    ``back`` shows every cloze's content; ``fronts[n]`` hides cloze ``n`` behind
    a visible gap (``[...]`` or ``[hint]``) and shows the others (the ``alt``
    text of card ``n``'s front image; the image itself is drawn from the
    formula with its clozes, ``_mathjax_drawing.engine_tex``).
    """

    back: str
    fronts: dict[int, str] = field(default_factory=dict)


def cloze_variants(tex: str) -> ClozeVariants:
    """Split TeX holding ``{{cN::x}}`` / ``{{cN::x::hint}}`` into its back and front TeX.

    Raises FormulaError for cloze syntax ``tex_problem`` reports.
    """
    try:
        clozes = _tex_syntax.find_clozes(tex)
    except _tex_syntax.ClozeSyntaxError as exc:
        raise FormulaError(str(exc)) from None
    back = _tex_syntax.strip_clozes(tex, clozes)
    numbers = sorted({c.number for c in clozes})
    return ClozeVariants(
        back=back,
        fronts={n: _tex_syntax.strip_clozes(tex, clozes, hide=n) for n in numbers},
    )


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
    parts += [written(n, backs.get(n, back_img), fronts[n]) for n in sorted(fronts)]
    parts.append(f'<span class="ag-mc-all">{back_img}</span></span>')
    return "".join(parts)


def mathjax_html(tex: str, *, display: bool, cloze: bool = False) -> str:
    """Field HTML for a formula in mathjax mode: ``\\(...\\)`` or ``\\[...\\]``.

    With ``cloze``: Anki strips every tag inside ``\\(...\\)``, so each card gets
    whole formulas (``math_cloze_html``) whose cloze part is in ``\\class{cloze}``.
    """
    if cloze:
        whole, fronts, backs = _tex_syntax.mathjax_cloze_tex(tex)

        def span(part: str) -> str:
            return f'<span class="ag-mf">{mathjax_html(part, display=display)}</span>'

        front_spans, back_spans = ({n: span(t) for n, t in ts.items()} for ts in (fronts, backs))
        return math_cloze_html(span(whole), front_spans, back_spans)
    # MathJax reads `&#91;` as `[`; Anki's sound and LaTeX parsers do not.
    delimited = f"\\[{tex}\\]" if display else f"\\({tex}\\)"
    return anki_markup.inert_commands(escapeHtml(delimited))
