"""Image mode draws with MathJax in V8: the same TeX as mathjax mode, closed where MathJax is open.

Issue 23: every construct below is accepted by both modes (one allow-list)
and drawn in image mode; ``\\bm`` is refused by both with its fix. The engine
itself (bypassing the allow-list) knows no command that links, styles, loads
or defines, keeps no definition from one formula to the next, and writes
every attribute value escaped.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ankigen.render import FormulaError, _mathjax_drawing, render_formula, tex_problem
from ankigen.render._mathjax_engine import MathJaxError, MathJaxOutOfHeap, engine

#: (TeX, display) that authors write and mathtext refused: both modes take them now.
CONSTRUCTS = [
    ("a = b\nc = d", False),  # a line break inside a formula
    ("a = b \\\\ c = d", True),
    (r"{a \over b}", False),
    (r"{n \choose k}", True),
    (r"a \mod b", False),
    (r"a \equiv b \pmod{n}", True),
    (r"a \bmod b", False),
    (r"\sqrt 3", False),
    (r"E = mc^2 \tag{1}", True),
    (r"E = mc^2 \tag*{A}", True),
    (r"\text{if $x > 0$}", False),
    (r"\begin{align*} a &= b \\ c &= d \end{align*}", True),
    (r"\begin{align} a &= b \tag{2} \\ c &= d \notag \end{align}", True),
    (r"\begin{gather*} a \\ b \end{gather*}", True),
    (r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}", True),
    (r"f(x) = \begin{cases} 1 & x > 0 \\ 0 & \text{otherwise} \end{cases}", True),
    (r"\underbrace{a + b}_{n} + \overbrace{c}^{m}", False),
    (r"\boxed{x} + \xrightarrow{f} + \cancel{y}", False),
    (r"\sum_{i=1}^{n} \int_0^1 f \, dx", True),
]


@pytest.mark.parametrize(("tex", "display"), CONSTRUCTS)
def test_both_modes_take_the_construct_and_image_mode_draws_it(tex: str, display: bool) -> None:
    assert tex_problem(tex) is None  # the one check of both modes
    drawn = render_formula(tex, display=display)
    assert drawn.renderer == "mathjax" and drawn.width_em > 0.3
    ET.fromstring(drawn.svg)  # well-formed


def test_bm_is_refused_in_both_modes_with_its_fix() -> None:
    message = tex_problem(r"\bm{x}")
    assert message == r"\bm is not defined in MathJax 3: write \boldsymbol{...} for a bold symbol"
    with pytest.raises(FormulaError, match=r"write \\boldsymbol"):
        render_formula(r"\bm{x}", display=False)
    assert render_formula(r"\boldsymbol{x}", display=False).svg


def test_an_error_inside_mathjax_is_said_to_be_one_with_what_to_check() -> None:
    # A control character after \frac made MathJax's parser read past its input.
    with pytest.raises(FormulaError) as raised:
        render_formula("\\frac\x1b[31m{a}{b}", display=False)
    assert str(raised.value).startswith("MathJax stopped on an internal error (")
    assert str(raised.value).endswith("check the formula's commands and braces")


def test_a_tag_follows_its_formula_in_an_image() -> None:
    tagged = render_formula(r"E = mc^2 \tag{1}", display=True)
    plain = render_formula(r"E = mc^2", display=True)
    assert plain.width_em + 1.5 < tagged.width_em < plain.width_em + 4  # a \qquad and "(1)"
    assert b'width="100%"' not in tagged.svg


def test_a_unary_minus_is_not_spaced_as_a_binary_one() -> None:
    assert render_formula("(-1)", display=False).width_em == pytest.approx(
        render_formula("({-}1)", display=False).width_em
    )
    assert (
        render_formula("(1-1)", display=False).width_em
        > render_formula("(1{-}1)", display=False).width_em
    )


# --- hostile TeX ---------------------------------------------------------------


@pytest.mark.parametrize(
    "tex",
    [
        r"\href{javascript:alert(1)}{x}",
        r'\href{x" onload="alert(1)}{y}',
        r"\style{background:url(https://example.com/x)}{x}",
        r"\class{cloze}{x}",
        r"\cssId{main}{x}",
        r"\unicode[Arial]{x41}",
        r"\require{html}",
        r"\def\x{1} \x",
        r"\newcommand{\x}{1} \x",
        r"\definecolor{red}{RGB}{0,255,0} x",
    ],
)
def test_the_allow_list_refuses_it_before_mathjax(tex: str) -> None:
    assert tex_problem(tex) is not None
    with pytest.raises(FormulaError):
        render_formula(tex, display=False)


@pytest.mark.parametrize(
    "tex",
    [
        r"\href{javascript:alert(1)}{x}",
        r"\style{color:red}{x}",
        r"\class{x}{y}",
        r"\cssId{x}{y}",
        r"\unicode{x41}",
        r"\require{html}",
        r"\def\x{1}",
        r"\newcommand{\x}{1}",
    ],
)
def test_mathjax_itself_knows_no_command_that_links_styles_loads_or_defines(tex: str) -> None:
    with pytest.raises(MathJaxError, match="Undefined control sequence"):
        engine().draw(tex, display=False, time_limit=30)


def test_no_definition_carries_over_to_the_next_formula() -> None:
    # mathtools defines; the engine (allow-list bypassed) must forget it
    engine().draw(r"\DeclarePairedDelimiter\abs{\lvert}{\rvert} x", display=False, time_limit=30)
    with pytest.raises(MathJaxError, match=r"Undefined control sequence \\abs"):
        engine().draw(r"\abs{x}", display=False, time_limit=30)


def test_the_writer_escapes_every_value_and_drops_unknown_attributes() -> None:
    hostile = 'x" onload="alert(1)'
    script = (
        "(function () { var a = MathJax._.adaptors.liteAdaptor.liteAdaptor();"
        f" var g = a.node('g', {{fill: {json.dumps(hostile)}, onload: 'alert(1)',"
        " href: 'javascript:alert(1)', style: 'background:url(x)'},"
        " [a.text('<script>&')]);"
        " return AnkigenMathJax.write(a.node('svg', {}, [g])); })()"
    )
    written = str(engine()._context.eval(script))
    assert written == ('<svg><g fill="x&quot; onload=&quot;alert(1)">&lt;script&gt;&amp;</g></svg>')


def test_a_refused_element_is_never_written() -> None:
    script = (
        "(function () { var a = MathJax._.adaptors.liteAdaptor.liteAdaptor();"
        " return AnkigenMathJax.write(a.node('svg', {}, [a.node('foreignObject')])); })()"
    )
    with pytest.raises(Exception, match=r"unexpected <foreign[oO]bject>"):
        engine()._context.eval(script)


def test_text_in_a_formula_is_escaped_in_the_svg() -> None:
    drawn = render_formula(r"\text{<b> & 'quoted' \"x\"}", display=False)
    ET.fromstring(drawn.svg)
    assert b"<b>" not in drawn.svg


# --- determinism -----------------------------------------------------------------

_CHILD = """
import json, sys
from ankigen.render import _mathjax_engine, render_formula
jobs = json.loads(sys.argv[1])
_mathjax_engine.V8_FLAGS = tuple(json.loads(sys.argv[2]))
print(json.dumps([render_formula(t, display=d, card=c, hide=h).svg.hex() for t, d, c, h in jobs]))
"""

_JOBS = [
    (r"\frac{\sigma}{\sqrt{n}}", True, 0, False),
    (r"\text{if $x$} \tag{3}", True, 0, False),
    (r"a + {{c1::b::hint}} = {{c2::c}}", False, 1, True),
    (r"a + {{c1::b::hint}} = {{c2::c}}", False, 2, False),
    (r"\begin{align*} a &= b \\ c &= d \end{align*}", True, 0, False),
]


def test_same_bytes_in_two_other_processes_and_this_one() -> None:
    """Also with V8 on one thread (mini-racer's default): its threads change no byte."""
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": str(src)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", _CHILD, json.dumps(order), json.dumps(flags)],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
        for order, flags in ((_JOBS, []), (_JOBS[::-1], []), (_JOBS, ["--single-threaded"]))
    ]
    first, second, single_threaded = (json.loads(run.stdout) for run in runs)
    assert first == second[::-1]
    assert single_threaded == first
    here = [render_formula(t, display=d, card=c, hide=h).svg.hex() for t, d, c, h in _JOBS]
    assert here == first


def test_image_names_change_with_the_engine() -> None:
    from importlib.metadata import version

    from ankigen.render import RENDER_SETTINGS

    assert f"mathjax={version('django-static-mathjax')}" in RENDER_SETTINGS
    assert f"mini-racer={version('mini-racer')}" in RENDER_SETTINGS
    assert "script=" in RENDER_SETTINGS  # the driver script's hash: not a *.py file


def test_every_allowed_command_is_one_the_engine_knows() -> None:
    """What the allow-list passes in mathjax mode, image mode can draw (issue 23)."""
    from ankigen.syntax.tex import COMMANDS

    unknown = []
    for command in sorted(COMMANDS - {"of"}):  # \of exists only inside \root n \of x
        try:
            engine().draw(f"\\{command}{{x}}{{y}}", display=True, time_limit=30)
        except MathJaxError as exc:
            if "Undefined control sequence" in str(exc):
                unknown.append(command)
    assert unknown == []
    assert render_formula(r"\root 3 \of x", display=False).svg


class _FullHeap:
    """An engine whose heap earlier formulas filled: the next formula runs out of it."""

    spent = False

    def draw(self, source: str, *, display: bool, time_limit: float) -> object:
        self.spent = True
        raise MathJaxOutOfHeap("drawing it needs too much memory: split it up", fresh=False)


def test_a_formula_that_runs_out_of_a_used_engines_heap_is_drawn_on_a_fresh_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whether a formula fits must not depend on what the process drew before it."""
    expected = render_formula(r"\frac{a}{b}", display=True)
    engines: list[object] = [_FullHeap(), engine()]  # the used one, then a fresh one
    monkeypatch.setattr(_mathjax_drawing, "engine", lambda: engines.pop(0))
    assert render_formula(r"\frac{a}{b}", display=True) == expected
    assert engines == []


def test_a_formula_too_big_for_a_fresh_engine_is_refused_with_its_fix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class FreshFull(_FullHeap):
        def draw(self, source: str, *, display: bool, time_limit: float) -> object:
            raise MathJaxOutOfHeap("drawing it needs too much memory: split it up", fresh=True)

    monkeypatch.setattr(_mathjax_drawing, "engine", FreshFull)
    with pytest.raises(FormulaError, match="too much memory"):
        render_formula(r"\frac{a}{b}", display=True)


_FORKED = """
import os, sys
from ankigen.render import render_formula
render_formula(r"\\frac{a}{b}", display=False)
child = os.fork()
if child == 0:
    try:
        render_formula(r"\\sqrt{x}", display=False)
        print("drew")
    except RuntimeError as refused:
        print("refused:", refused)
    sys.stdout.flush()
    os._exit(0)
os.waitpid(child, 0)
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")
def test_a_process_forked_after_v8_started_is_refused_not_left_hanging() -> None:
    """V8's threads stay behind in a fork: the child is told so at its first formula."""
    src = Path(__file__).resolve().parents[2] / "src"
    run = subprocess.run(
        [sys.executable, "-c", _FORKED],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(src)},
    )
    assert run.stdout.startswith("refused: V8 was started before this process was forked")
    assert "'spawn'" in run.stdout
