"""``ankigen init``: a new project builds, passes --strict and imports into real Anki."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result
from PIL import Image

from ankigen.cli.app import main
from ankigen.commands.init import square_png
from tests.anki_support import fresh_collection, import_deck, seen_cards


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_a_new_project_builds_passes_strict_and_imports_into_anki(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    created = invoke("init", "x")
    assert created.exit_code == 0, created.output
    monkeypatch.chdir(tmp_path / "x")
    built = invoke("build")
    assert built.exit_code == 0, built.output
    assert "warning" not in built.output
    checked = invoke("check", "--strict")
    assert checked.exit_code == 0, checked.output
    assert "0 errors, 0 warnings" in checked.output

    with fresh_collection() as collection:
        log = import_deck(collection, tmp_path / "x" / "build" / "x.apkg")
        cards = seen_cards(collection)
        assert collection.media.check().missing == []
    assert log.new == 9 and log.duplicate == 0 and log.conflicting == 0
    assert {card.note_type for card in cards} == {"ankigen Reveal", "ankigen Cloze"}
    assert len(cards) == 10
    for card in cards:
        assert card.front != card.back
    sides = "\n".join(card.front + card.back for card in cards)
    for shown in ('class="cloze"', "ag-fig-area-", "ag-img-", 'class="ag-math"', "[how many?]"):
        assert shown in sides


def test_init_refuses_to_overwrite_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "notes.md").write_text("mine", "utf-8")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'mine'\n", "utf-8")
    result = invoke("init", str(tmp_path))
    assert result.exit_code == 2
    assert "pyproject.toml already exists" in result.output
    assert "never overwrites" in result.output
    assert (tmp_path / "pyproject.toml").read_text("utf-8") == "[project]\nname = 'mine'\n"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["content", "notes.md", "pyproject.toml"]


def test_init_twice_is_refused(tmp_path: Path) -> None:
    assert invoke("init", str(tmp_path / "deck")).exit_code == 0
    again = invoke("init", str(tmp_path / "deck"))
    assert again.exit_code == 2
    assert "already exist;" in again.output  # six files
    assert "copy the [tool.ankigen] table" in again.output
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "pyproject.toml").write_text("[project]\n", "utf-8")
    assert "pyproject.toml already exists;" in invoke("init", str(tmp_path / "one")).output


def test_init_from_a_folder_says_the_workflow_cannot_install_from_it(tmp_path: Path) -> None:
    from ankigen.build.install_source import install_line

    folder = install_line({"url": (tmp_path / "src").as_uri(), "dir_info": {}}, "0.1.0")
    assert not folder.reachable
    released = install_line(None, "0.1.0")
    assert released.reachable
    from ankigen.commands.init import create_project

    project = create_project(tmp_path / "deck", folder)
    assert not project.install.reachable
    # This ankigen runs from a folder (the tests' editable install): the CLI says so.
    from ankigen.build.install_source import running_install

    said = invoke("init", str(tmp_path / "cli")).output
    assert ("GitHub's runners cannot reach" in said) == (not running_install().reachable)


def test_the_workflow_builds_strictly_and_releases_on_tags(tmp_path: Path) -> None:
    assert invoke("init", str(tmp_path)).exit_code == 0
    workflow = yaml.safe_load((tmp_path / ".github" / "workflows" / "decks.yml").read_text())
    steps = workflow["jobs"]["decks"]["steps"]
    commands = [step.get("run", "") for step in steps]
    assert any(c.startswith("pip install") and "ankigen" in c for c in commands)
    assert any("ankigen build --strict" in c for c in commands)
    release = next(step for step in steps if "gh release create" in step.get("run", ""))
    assert release["if"] == "startsWith(github.ref, 'refs/tags/')"
    assert "build/*.apkg" in release["run"]
    # PyYAML reads the key `on` as True.
    assert workflow[True]["push"]["tags"] == ["v*"]
    assert "/build/" in (tmp_path / ".gitignore").read_text("utf-8").splitlines()


def test_the_workflow_runs_figures_from_forks_only_after_review(tmp_path: Path) -> None:
    """A fork's figure scripts are code: its build waits in a protected environment."""
    assert invoke("init", str(tmp_path)).exit_code == 0
    text = (tmp_path / ".github" / "workflows" / "decks.yml").read_text("utf-8")
    workflow = yaml.safe_load(text)
    same_repository = "github.event.pull_request.head.repo.full_name == github.repository"
    assert same_repository in workflow["jobs"]["decks"]["if"]
    fork = workflow["jobs"]["fork"]
    assert same_repository.replace("==", "!=") in fork["if"]
    assert fork["environment"] == "review-figures"
    assert fork["permissions"] == {"contents": "read"}
    assert workflow["permissions"] == {"contents": "read"}
    assert not any("gh release" in step.get("run", "") for step in fork["steps"])
    assert "Required reviewers" in text


def test_the_sample_image_is_a_real_png_and_always_the_same() -> None:
    data = square_png()
    assert data == square_png()
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (24, 24)
    assert image.convert("RGB").getpixel((3, 3)) == (0x2A, 0x9D, 0x8F)
