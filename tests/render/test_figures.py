"""Figures: deterministic bytes in both formats, drawn once per build, fed the checked formulas."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

import pytest
import sympy
from click.testing import CliRunner

from ankigen.check._compile import CompiledFormula
from ankigen.cli.app import main
from ankigen.render import Failed, MediaCache, Place, Shipped, draw_figure
from ankigen.sandbox.child import Task, call_in_child
from ankigen.sandbox.formulas import formulas_from_wire, formulas_to_wire

T = TypeVar("T")

#: Where the figure is referenced, for the error when it fails.
HERE = Place("deck.md", 7)

SCRIPT = """
def draw(fig, formulas):
    ax = fig.add_subplot()
    ks = [1, 2, 4, 8]
    ax.plot(ks, [formulas["S"](k=k) for k in ks])
"""


@pytest.fixture
def figures(tmp_path: Path) -> Path:
    folder = tmp_path / "figures"
    folder.mkdir()
    (folder / "curve.py").write_text(SCRIPT, "utf-8")
    return folder


def count_runs(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Each figure script started from now on (a script may not write a file to say so)."""
    started: list[object] = []
    real = call_in_child

    def counted(task: Task, *args: Any) -> object:
        started.append(task)
        return real(task, *args)

    monkeypatch.setattr("ankigen.render._figures.call_in_child", counted)
    return started


@pytest.mark.parametrize("image_format", ["svg", "png"])
def test_a_figure_gives_the_same_bytes_every_time(
    figures: Path, tmp_path: Path, image_format: str
) -> None:
    def draw(cache: str) -> bytes:
        result = draw_figure(
            "curve",
            figures,
            {"S": CompiledFormula("S", sympy.Symbol("k") / 2)},
            "let S = k/2",
            image_format,
            MediaCache(tmp_path / cache),
            place=HERE,
        )
        assert isinstance(result, Shipped), result
        assert result.media.name.endswith(f".{image_format}")
        return result.media.read()

    first, second = draw("one"), draw("two")
    assert first == second
    assert first.startswith(b"\x89PNG" if image_format == "png" else b"<?xml")


def test_each_figure_runs_once_per_build_with_the_files_formulas(
    figures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    runs = count_runs(monkeypatch)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "deck.md").write_text(
        "# Figures\n\n```formulas\nlet S = k/2\n```\n\n"
        "First? ::: ![a](figure:curve)\n\nSecond? ::: ![b](figure:curve)\n\n"
        "Third? ::: ![c](figure:curve)\n",
        "utf-8",
    )
    result = CliRunner().invoke(main, ["build", "--math", "mathjax"])
    assert result.exit_code == 0, result.output
    assert len(runs) == 1


def test_a_failing_figure_runs_once_and_is_reported_at_each_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    runs = count_runs(monkeypatch)
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "broken.py").write_text(
        "def draw(fig, formulas):\n    raise ValueError('no data')\n",
        "utf-8",
    )
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "deck.md").write_text(
        "# Figures\n\nFirst? ::: ![a](figure:broken)\n\nSecond? ::: ![b](figure:broken)\n",
        "utf-8",
    )
    result = CliRunner().invoke(main, ["build", "--math", "mathjax", "--format", "json"])
    assert result.exit_code == 1, result.output
    records = json.loads(result.stdout)["diagnostics"]
    found = [(r["line"], r["code"], r["message"]) for r in records]
    message = "figure 'broken' failed: ValueError: no data"
    assert found == [(3, "AG330", message), (5, "AG330", message)]
    assert len(runs) == 1


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("    import sys\n    sys.exit(0)\n", "figure 'bad' failed: SystemExit: 0"),
        (
            "    while True:\n        pass\n",
            "figure 'bad' did not finish within the figure time limit of 5 s; "
            "make it faster, or raise figure-time-limit in [tool.ankigen]",
        ),
    ],
    ids=["exits", "loops"],
)
def test_a_figure_that_exits_or_hangs_is_an_error(tmp_path: Path, body: str, message: str) -> None:
    (tmp_path / "bad.py").write_text(f"def draw(fig, formulas):\n{body}", "utf-8")
    cache = MediaCache(tmp_path / "cache")
    result = draw_figure("bad", tmp_path, {}, "", "svg", cache, time_limit=5, place=HERE)
    assert isinstance(result, Failed)
    assert result.diagnostic.message == message
    assert (result.diagnostic.file, result.diagnostic.line) == ("deck.md", 7)


def test_what_a_figure_prints_stays_out_of_the_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "chatty.py").write_text(
        "def draw(fig, formulas):\n    print('hello')\n    fig.add_subplot().plot([1, 2])\n",
        "utf-8",
    )
    cache = MediaCache(tmp_path / "cache")
    result = draw_figure("chatty", tmp_path, {}, "", "svg", cache, place=HERE)
    assert isinstance(result, Shipped)
    assert capsys.readouterr().out == ""


def test_a_figure_svg_passes_the_svg_allow_list(tmp_path: Path) -> None:
    """A script is author code: a javascript: link it puts in its SVG never ships."""
    folder = tmp_path / "figures"
    folder.mkdir()
    (folder / "sneaky.py").write_text(
        "def draw(fig, formulas):\n"
        "    ax = fig.add_subplot()\n"
        "    ax.plot([1, 2], [1, 2])[0].set_url('javascript:alert(1)')\n",
        "utf-8",
    )
    result = draw_figure(
        "sneaky", folder, {}, "", "svg", MediaCache(tmp_path / "cache"), place=HERE
    )
    assert isinstance(result, Failed)
    assert result.diagnostic.code == "AG602"
    assert result.diagnostic.message.startswith("figure 'sneaky' is refused")


def test_formulas_reach_the_figures_process_as_the_same_functions() -> None:
    """The child has no sympy: it gets each formula's generated function as data."""
    a, k = sympy.symbols("a k")
    exprs = {
        "roots": sympy.sqrt(a) + sympy.log(k) + sympy.exp(-a) + sympy.pi,
        "pieces": sympy.Min(a, k) + sympy.Max(a, 2) + sympy.Abs(a - k) + sympy.floor(a),
        "trig": sympy.sin(a) * sympy.cos(k) + sympy.Rational(1, 3) + sympy.E,
        "list": sympy.Tuple(1, a, a * k),
    }
    compiled = {name: CompiledFormula(name, expr) for name, expr in exprs.items()}
    sent = formulas_from_wire(json.loads(json.dumps(formulas_to_wire(compiled))))
    for name, formula in compiled.items():
        values = {p: 1.5 + n for n, p in enumerate(formula.parameters)}
        assert sent[name](**values) == formula(**values)
        exact = exprs[name].subs(values)
        expected = tuple(float(x) for x in exact) if name == "list" else float(exact.evalf())
        assert sent[name](**values) == pytest.approx(expected)
    with pytest.raises(TypeError, match="takes a, k"):
        sent["roots"](a=1.0)


def test_a_formula_may_take_names_from_math_only() -> None:
    """What comes back as a function is rebuilt from math and builtins, nothing else."""
    wire = formulas_to_wire({"S": CompiledFormula("S", sympy.Symbol("k") / 2)})
    wire[0]["names"] = [["system", "os", "system"]]
    with pytest.raises(ValueError, match="math and builtins"):
        formulas_from_wire(wire)
    with pytest.raises(TypeError, match="cannot get"):
        formulas_to_wire({"S": lambda k: k / 2})
