"""Messages a newcomer meets, as golden output through CliRunner.

A missing image names its column, the path it looked for and the nearest
existing image; a figure that uses a broken or unknown ``formulas`` name is
an error at the figure's line naming the formula's error, never a
``KeyError`` with a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ankigen.cli.app import main
from tests.conftest import compare_golden

GOLDEN = Path(__file__).parent / "fixtures"

DECK = """\
# Dice

```formulas
let pmf = 1 / (
let cdf = k / 6
let big = 10^10^10
```

What does a six look like? ::: ![a die](img/die-six.png)

And a one? ::: ![a die](img/one.png)

And this one? ::: Text, then ![nothing like it](pictures/unrelated-name.png)

What does the pmf look like? ::: ![pmf](figure:pmf)

What does the cdf look like? ::: ![cdf](figure:cdf)

How big? ::: ![big](figure:big)
"""

SCRIPTS = {
    "pmf": 'def draw(fig, formulas):\n    fig.add_subplot().bar([1], [formulas["pmf"](k=1)])\n',
    "cdf": 'def draw(fig, formulas):\n    fig.add_subplot().bar([1], [formulas["cfd"](k=1)])\n',
    "big": 'def draw(fig, formulas):\n    fig.add_subplot().bar([1], [formulas["big"]()])\n',
}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content" / "img" / "faces").mkdir(parents=True)
    (tmp_path / "content" / "x.md").write_text(DECK, "utf-8")
    png = b"\x89PNG\r\n\x1a\n"
    (tmp_path / "content" / "img" / "die-6.png").write_bytes(png)
    (tmp_path / "content" / "img" / "faces" / "one.png").write_bytes(png)
    (tmp_path / "figures").mkdir()
    for name, script in SCRIPTS.items():
        (tmp_path / "figures" / f"{name}.py").write_text(script, "utf-8")
    return tmp_path


def test_missing_images_and_broken_formulas_in_figures(project: Path) -> None:
    result = CliRunner().invoke(main, ["check", "content"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.startswith("content/")]
    assert "Traceback" not in result.output
    compare_golden("".join(f"{line}\n" for line in lines), GOLDEN / "newcomer-messages.golden")
