"""``ankigen guide [TOPIC]``: the author's guide shipped in the package, through CliRunner.

The shipped ``src/ankigen/guide/format.md`` is a symlink to ``docs/format.md``
(a wheel stores the file it points to), so the two cannot drift; the first
test says so.
"""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ankigen.cli.app import main
from tests.conftest import ROOT

DOCS = ROOT / "docs" / "format.md"
SHIPPED = ROOT / "src" / "ankigen" / "guide" / "format.md"


def guide(*args: str) -> Result:
    # A pager that prints nothing: if the guide used it off a terminal, the text would be lost.
    return CliRunner(env={"PAGER": "false"}).invoke(main, ["guide", *args])


def test_the_shipped_guide_is_docs_format_md() -> None:
    assert SHIPPED.is_symlink(), "src/ankigen/guide/format.md must link to docs/format.md"
    assert SHIPPED.resolve() == DOCS.resolve()


def test_the_guide_is_package_data() -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert "guide/*.md" in settings["tool"]["setuptools"]["package-data"]["ankigen"]


def _docs_section(heading: str) -> str:
    """A section of docs/format.md up to the next numbered heading of its level, cut by hand."""
    text = DOCS.read_text("utf-8")
    start = text.index(f"\n{heading}\n") + 1
    ends = re.compile(r"\n## \d" if heading.startswith("## ") else r"\n## \d|\n### ")
    end = ends.search(text, start + 1)
    return text[start : end.start() if end else len(text)].rstrip() + "\n"


def test_no_topic_prints_the_opening_and_the_topics() -> None:
    result = guide()
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "# Writing content for ankigen"
    assert "  ankigen guide 6   Cloze items" in lines
    assert "  ankigen guide 12  Formula checks" in lines
    assert lines[-1] == (
        "Short names: checks, cli, codes, commands, format, limits, near-misses; "
        "'ankigen guide all' prints everything."
    )


@pytest.mark.parametrize(
    ("topic", "heading"),
    [
        (["codes"], "### 13.2 Diagnostic codes"),
        (["limits"], "### Limits"),
        (["12"], "## 12. Formula checks"),
        (["13.1"], "### 13.1 Near misses"),
        (["cloze"], "## 6. Cloze items"),
        (["front", "matter"], "## 2. Front matter"),
        (["Figures"], "## 10. Figures"),
    ],
)
def test_a_topic_prints_its_section(topic: list[str], heading: str) -> None:
    result = guide(*topic)
    assert result.exit_code == 0, result.output
    assert result.output == _docs_section(heading)


def test_all_prints_the_whole_guide() -> None:
    assert guide("all").output == DOCS.read_text("utf-8")


def test_an_unknown_topic_suggests_the_nearest() -> None:
    result = guide("fgures")
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        "Error: no guide topic 'fgures'. Did you mean: figures, images, formula-checks? "
        "'ankigen guide' lists the topics."
    )


def test_an_unknown_topic_reaches_the_terminal_escaped() -> None:
    """A pasted topic with an escape sequence (here: retitle the window) is shown, not run."""
    result = guide("\x1b]0;pwned\x07x")
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        "Error: no guide topic '\\x1b]0;pwned\\x07x'. 'ankigen guide' lists the topics."
    )


def _commands() -> list[list[str]]:
    return [[], *([name] for name in sorted(main.commands))]


@pytest.mark.parametrize("command", _commands(), ids=lambda c: " ".join(c) or "ankigen")
def test_help_points_at_the_guide_not_at_the_sources(command: list[str]) -> None:
    result = CliRunner().invoke(main, [*command, "--help"])
    assert result.exit_code == 0, result.output
    assert "docs/format.md" not in result.output
    if "content format" in result.output:
        assert "ankigen guide" in result.output


def test_the_sample_deck_of_init_points_at_the_guide(tmp_path: Path) -> None:
    assert CliRunner().invoke(main, ["init", str(tmp_path / "d")]).exit_code == 0
    sample = (tmp_path / "d" / "content" / "d.md").read_text("utf-8")
    assert "`ankigen guide` prints the whole format" in sample
    assert "docs/format.md" not in sample


def test_on_a_terminal_the_guide_goes_through_the_pager(tmp_path: Path) -> None:
    """In a real pseudo-terminal, ``$PAGER`` shows the text (here: a pager that marks lines)."""
    leader, follower = pty.openpty()
    env = {**os.environ, "PAGER": "sed s/^/PAGED:/", "PYTHONPATH": str(ROOT / "src")}
    with subprocess.Popen(
        [sys.executable, "-m", "ankigen", "guide", "13.2"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        cwd=tmp_path,
    ) as child:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed: the child has ended
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert child.wait(timeout=60) == 0
    os.close(leader)
    shown = b"".join(chunks).decode("utf-8").replace("\r\n", "\n")
    assert "PAGED:### 13.2 Diagnostic codes" in shown
