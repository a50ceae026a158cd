"""A gallery of formulas: their image sizes, and how they compare with MathJax's.

The sizes (in em of the card's text) of a fixed set of formulas are pinned
within a tolerance, so a change of font, display style or scale shows as a
failing test. In Chromium the same formulas are drawn by MathJax 3 (what
Anki draws in mathjax mode) beside our images: ours must come out about as
large, and a display fraction clearly larger than an inline one, in both.
Set AG_SCREENSHOTS=DIR to keep the screenshot of the comparison.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

from ankigen.render import formula_img_html, render_formula
from tests.chromium import CHROMIUM, PROBE_HEAD, SKIP_REASON, measure, screenshot

#: (TeX, display, renderer, (width, height, depth) in em)
GALLERY = [
    (r"\frac{\sigma}{\sqrt{n}}", True, "mathjax", (2.272, 2.552, 1.224)),
    (r"\frac{\sigma}{\sqrt{n}}", False, "mathjax", (1.761, 1.546, 0.708)),
    (r"\sqrt{x^2+1}", False, "mathjax", (4.301, 1.272, 0.112)),
    (
        r"S = \frac{T_{compute}}{\frac{T_{compute}}{k} + T_{comm}}",
        True,
        "mathjax",
        (10.751, 3.310, 1.601),
    ),
    (r"\sum_{i=1}^{k} g_i", True, "mathjax", (2.898, 3.584, 1.495)),
    (r"\sum_{i=1}^{k} g_i", False, "mathjax", (3.909, 1.573, 0.412)),
    (r"\theta_{t+5}", False, "mathjax", (2.053, 1.096, 0.250)),
    (r"x", False, "mathjax", (0.686, 0.544, 0.013)),
    (r"\lim_{k\to\infty} \frac{k-1}{k} = 1", True, "mathjax", (7.760, 2.562, 0.919)),
    (
        r"T_{comm} \approx \underbrace{\alpha \log_2 k}_{\text{latency}} + \frac{M}{\beta}",
        True,
        "mathjax",
        (11.777, 3.747, 2.116),
    ),
]
#: Relative size difference tolerated before the gallery counts as changed.
TOLERANCE = 0.04


@pytest.mark.parametrize(("tex", "display", "renderer", "size"), GALLERY)
def test_gallery_sizes_stay_put(
    tex: str, display: bool, renderer: str, size: tuple[float, float, float]
) -> None:
    drawn = render_formula(tex, display=display)
    assert drawn.renderer == renderer
    width, height, depth = size
    assert drawn.width_em == pytest.approx(width, rel=TOLERANCE)
    assert drawn.height_em == pytest.approx(height, rel=TOLERANCE)
    assert drawn.depth_em == pytest.approx(depth, rel=TOLERANCE, abs=0.03)


def test_display_style_is_larger_than_text_style() -> None:
    shown = render_formula(r"\frac{\sigma}{\sqrt{n}}", display=True)
    inline = render_formula(r"\frac{\sigma}{\sqrt{n}}", display=False)
    assert shown.height_em > 1.5 * inline.height_em
    assert shown.width_em > 1.2 * inline.width_em


def _mathjax() -> Path | None:
    spec = importlib.util.find_spec("mathjax")
    if spec is None or spec.origin is None:
        return None
    script = Path(spec.origin).parent / "static" / "mathjax" / "es5" / "tex-svg.js"
    return script if script.is_file() else None


_MEASURE = """<script>
MathJax = {svg: {fontCache: 'none'}, startup: {pageReady: () =>
  MathJax.startup.defaultPageReady().then(() => report(
    [...document.querySelectorAll('.row')].map(row => {
      const ours = row.querySelector('img').getBoundingClientRect();
      const theirs = row.querySelector('mjx-container svg').getBoundingClientRect();
      return [ours.width, ours.height, theirs.width, theirs.height];
    })))}};
</script>"""


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory) -> list[list[float]]:
    """[our width, our height, MathJax's width, MathJax's height] per gallery formula, in px."""
    if CHROMIUM is None:
        pytest.skip(SKIP_REASON)
    mathjax = _mathjax()
    if mathjax is None:
        pytest.skip("MathJax 3 (the django-static-mathjax package) is not installed")
    folder = tmp_path_factory.mktemp("gallery")
    rows = []
    for index, (tex, display, _, _) in enumerate(GALLERY):
        drawn = render_formula(tex, display=display)
        (folder / f"f{index}.svg").write_bytes(drawn.svg)
        img = formula_img_html(f"f{index}.svg", drawn, display=False, alt="")
        theirs = f"\\[{tex}\\]" if display else f"\\({tex}\\)"
        rows.append(f'<div class="row">{img} <span>{theirs}</span></div>')
    page = folder / "gallery.html"
    page.write_text(
        f"<!doctype html><html><head>{PROBE_HEAD}"
        "<style>body { font: 20px sans-serif } img { height: auto } .row { margin: 12px }</style>"
        f'{_MEASURE}<script src="{mathjax.as_uri()}"></script></head>'
        f"<body>{''.join(rows)}</body></html>",
        "utf-8",
    )
    shot = screenshot(page, 800, folder / "gallery.png")
    keep = os.environ.get("AG_SCREENSHOTS")  # a folder to keep the screenshot in
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)
    result: list[list[float]] = measure(page, 800)
    return result


def test_formulas_are_about_as_large_as_mathjax_draws_them(compared: list[list[float]]) -> None:
    for (tex, display, _, _), (width, height, mj_width, mj_height) in zip(
        GALLERY, compared, strict=True
    ):
        assert 0.75 < width / mj_width < 1.3, (tex, display, width, mj_width)
        assert 0.75 < height / mj_height < 1.45, (tex, display, height, mj_height)


def test_display_fraction_grows_as_in_mathjax(compared: list[list[float]]) -> None:
    display, inline = compared[0], compared[1]  # \frac{\sigma}{\sqrt{n}} shown, then inline
    ours = display[1] / inline[1]
    theirs = display[3] / inline[3]
    assert ours > 1.4 and theirs > 1.4
    assert ours == pytest.approx(theirs, rel=0.2)
