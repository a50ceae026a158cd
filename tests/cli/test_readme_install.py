"""The README's install lines work from what exists: a clone or a git URL, not PyPI.

ankigen is not published on an index yet (publishing is a release step in
docs/development.md), so no install line of the README may depend on it.
"""

from __future__ import annotations

import re

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text("utf-8")
_INSTALL = re.compile(r"\b(?:pipx|pip) install (?:--user )?(\S+(?: \S+)?)")


def test_the_first_two_commands_stay() -> None:
    lines = README.splitlines()
    assert lines[4].strip() == (
        "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/ankigen build"
    )
    assert lines[8].strip() == (
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/pytest"
    )


def test_every_install_line_installs_from_a_clone_or_a_git_url() -> None:
    targets = [m.group(1) for m in _INSTALL.finditer(README)]
    assert len(targets) >= 4
    for target in targets:
        source = target.removeprefix("-e ").split(" ")[0].strip("'\"")
        assert source == "." or source.startswith((".[", "git+")), target


def test_the_readme_points_at_the_guide_and_the_development_notes() -> None:
    assert "ankigen guide" in README
    assert "(docs/development.md)" in README
    assert (ROOT / "docs" / "development.md").is_file()
    assert "## Performance" not in README
