"""The guide's examples print what it says they print.

``docs/format.md`` (``ankigen guide``) shows, for many constructs, a content
file (`` (`content/x.md`): `` then a ``markdown`` block) and the messages
``ankigen check`` gives for it (the ``text`` block right after). Each such
example whose messages all name that one file is checked here through the
CLI: the guide promises its messages are the tool's real output.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ankigen.cli.app import main

DOCS = Path(__file__).resolve().parents[2] / "docs" / "format.md"
_EXAMPLE = re.compile(
    r"\(`content/(?P<name>[\w.-]+\.md)`\)[^\n]*:\n\n````markdown\n(?P<markdown>.*?)\n````\n\n"
    r"```text\n(?P<messages>.*?)\n```",
    re.DOTALL,
)


def _examples() -> list[tuple[str, str, list[str]]]:
    """(file name, its markdown, the messages shown) of each one-file example."""
    found = []
    for match in _EXAMPLE.finditer(DOCS.read_text("utf-8")):
        name, messages = match["name"], match["messages"].splitlines()
        if all(line.startswith(f"content/{name}:") for line in messages):
            found.append((name, match["markdown"], messages))
    return found


EXAMPLES = _examples()


def test_the_guide_has_examples_to_check() -> None:
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize(("name", "markdown", "messages"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_an_example_prints_the_messages_the_guide_shows(
    name: str, markdown: str, messages: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / name).write_text(markdown + "\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", f"content/{name}"])
    printed = [line for line in result.output.splitlines() if line.startswith("content/")]
    assert printed == messages
