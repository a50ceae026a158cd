"""Nothing from content or from a deck reaches a terminal as a control character.

Escape sequences (ESC, CSI, OSC), C1 controls, DEL and bidi controls in a
card, a file name or a deck's field are shown as visible escapes in every
text ankigen prints: diagnostics, ``diff``, progress lines. JSON keeps them as
JSON escapes, so it parses to the same data.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from ankigen.cli.terminal import visible
from tests.hostile.test_untrusted_decks import good, rewritten  # noqa: F401  # a fixture
from tests.reliability.support import run_cli

#: What an attacker writes: clear the screen, retitle the window, a C1 CSI, DEL, RLO.
HOSTILE = "\x1b[2J\x1b]0;owned\x07\x9b31m\x7f\u202e"
#: Any character a terminal would act on (newline and tab aside).
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
SRC = Path(__file__).parents[2] / "src" / "ankigen"
PRINTERS = ("print", "click.echo", "click.secho", "sys.stdout.write", "sys.stderr.write")


def test_visible_shows_every_control_and_keeps_text() -> None:
    assert visible(HOSTILE) == "\\x1b[2J\\x1b]0;owned\\x07\\x9b31m\\x7f\\u202e"
    assert visible("line one\n\tline two, é ≠ ∑") == "line one\n\tline two, é ≠ ∑"


@pytest.mark.parametrize("output_format", ["text", "github", "json"])
def test_diagnostics_quote_content_without_its_controls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, output_format: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "deck.md").write_text(
        f"# Deck\n\nQ ::: ![x](figure:{HOSTILE})\n", "utf-8"
    )
    result = run_cli(["check", "--format", output_format])
    assert result.exit_code == 1, result.output
    assert RAW.search(result.output) is None, repr(result.output)
    if output_format == "json":
        messages = [r["message"] for r in json.loads(result.stdout)["diagnostics"]]
        assert any(HOSTILE in message for message in messages)  # the same data, as JSON
    else:
        assert "\\x1b[2J" in result.output


def test_diff_shows_a_decks_fields_without_their_controls(
    good: Path,  # noqa: F811  # the fixture
    tmp_path: Path,
) -> None:
    hostile = rewritten(
        good,
        tmp_path / "hostile.apkg",
        "update notes set flds = char(27) || '[2J' || char(155) || 'x' || char(8238) || flds",
    )
    result = run_cli(["diff", str(good), str(hostile)])
    assert result.exit_code == 0, result.output
    assert RAW.search(result.output) is None, repr(result.output)
    assert "NOT APPLIED: \\x1b[2J\\x9bx\\u202eWhat is kept" in result.output
    result = run_cli(["diff", "--format", "json", str(good), str(hostile)])
    assert RAW.search(result.output) is None
    assert json.loads(result.stdout)["not_applied"][0]["first_field"].startswith("\x1b[2J")


def test_a_file_name_with_controls_is_shown_escaped(tmp_path: Path) -> None:
    junk = tmp_path / f"junk{HOSTILE}.apkg"
    junk.write_text("not a zip", "utf-8")
    result = run_cli(["diff", str(junk), str(junk)])
    assert result.exit_code == 1
    assert RAW.search(result.output) is None, repr(result.output)


@pytest.mark.parametrize("command", ["build", "preview"])
@pytest.mark.parametrize("output_format", ["text", "github"])
def test_a_line_break_in_a_content_file_name_starts_no_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, output_format: str
) -> None:
    # A line of its own after the break could fake a message or, at a line's start,
    # be a GitHub workflow command ('::warning::', '::add-mask::').
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    name = "y\n::warning::hi\nBuild succeeded"
    (tmp_path / "content" / f"{name}.md").write_text("# Deck\n\nQ ::: A $\\foo$\n", "utf-8")
    (tmp_path / "content" / f"{name}2.md").write_text("# Deck\n\nQ ::: A\n", "utf-8")
    options = ["--skip-broken", "--format", output_format] if command == "build" else []
    result = run_cli([command, "content", *options])
    lines = result.output.splitlines()
    assert not [line for line in lines if line.startswith("::warning::hi")], result.output
    assert not [line for line in lines if line.startswith("Build succeeded")], result.output
    assert "y\\n::warning::hi\\nBuild succeeded" in result.output


def test_import_names_an_unreadable_package_escaped(tmp_path: Path) -> None:
    """A downloaded deck's file name is the attacker's: import's usage error shows it escaped."""
    junk = tmp_path / f"shared{HOSTILE}.apkg"
    junk.write_text("not a zip", "utf-8")
    result = run_cli(["import", str(junk), "--out", str(tmp_path / "content")])
    assert result.exit_code == 2, result.output
    assert RAW.search(result.output) is None, repr(result.output)
    assert "shared\\x1b[2J" in result.output


def test_every_usage_error_built_at_run_time_is_escaped() -> None:
    """click prints a UsageError's message itself: one built at run time goes through visible()."""
    raw = []
    for module in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(module.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and ast.unparse(node.func) == "click.UsageError"):
                continue
            message = node.args[0] if node.args else None
            escaped = isinstance(message, ast.Call) and ast.unparse(message.func) == "visible"
            if not (escaped or isinstance(message, ast.Constant)):
                raw.append(f"{module.relative_to(SRC)}:{node.lineno}")
    assert raw == []


def test_only_the_terminal_module_prints() -> None:
    """Every line goes out through ``ankigen.cli.terminal``: no other module prints directly."""
    printers = []
    for module in SRC.rglob("*.py"):
        if module.name == "terminal.py":
            continue
        for node in ast.walk(ast.parse(module.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            called = ast.unparse(node.func)
            if called in PRINTERS:
                printers.append(f"{module.relative_to(SRC)}:{node.lineno} {called}")
    assert printers == []


def test_a_path_is_shown_on_one_line_and_never_as_a_workflow_command() -> None:
    from ankigen.build.paths import shown_path

    assert shown_path("content/a\nb\r.md") == "content/a\\nb\\r.md"
    assert shown_path("::error::x.md") == "./::error::x.md"
    assert shown_path(Path("content/deck.md")) == "content/deck.md"
