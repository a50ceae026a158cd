"""One key recipe: any file of the installed package, and the versions that shape output."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import pytest

import ankigen
from ankigen.cache import DRAWING_DISTRIBUTIONS, SHAPING_DISTRIBUTIONS, code_fingerprint, recipe
from ankigen.cache.recipe import runtime_versions
from ankigen.package.media_pack import MediaPack
from ankigen.render import RENDER_SETTINGS, MediaCache

INSTALLED = Path(ankigen.__file__).resolve().parent


def _copy(tmp_path: Path) -> Path:
    """A copy of the installed package, as another installation of the same version."""
    copy = tmp_path / "site" / "ankigen"
    shutil.copytree(INSTALLED, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


@pytest.mark.parametrize(
    "changed",
    [
        "package/card.css",
        "templates/preview/preview.js",
        "templates/init/workflow.yml.tmpl",
        "package/note_types.py",
        "py.typed",
    ],
)
def test_any_file_of_the_package_changes_the_fingerprint(tmp_path: Path, changed: str) -> None:
    copy = _copy(tmp_path)
    before = code_fingerprint(copy)
    assert before == code_fingerprint(INSTALLED)  # the same files: the same key
    with (copy / changed).open("a", encoding="utf-8") as file:
        file.write("\n/* edited */\n" if not changed.endswith(".py") else "\n# edited\n")
    assert code_fingerprint(copy) != before


def test_byte_compiled_files_do_not_count(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    (copy / "__pycache__").mkdir()
    (copy / "__pycache__" / "cli.cpython-311.pyc").write_bytes(b"compiled")
    assert code_fingerprint(copy) == code_fingerprint(INSTALLED)


def test_versions_in_the_recipe() -> None:
    runtime = runtime_versions()
    assert f"zlib={zlib.ZLIB_RUNTIME_VERSION}" in runtime
    assert sys.version in runtime
    for name in (
        "markdown-it-py",
        "mdit-py-plugins",
        "genanki",
        "sympy",
        "matplotlib",
        "nh3",
        "pint",
        "django-static-mathjax",
        "mini-racer",
    ):
        assert name in SHAPING_DISTRIBUTIONS and f"{name}=" in runtime
    # every library that draws formulas is in the name of every formula image
    for name in DRAWING_DISTRIBUTIONS:
        assert f"{name}=" in RENDER_SETTINGS
    assert "django-static-mathjax=" in RENDER_SETTINGS and "mini-racer=" in RENDER_SETTINGS


def _build(site: Path, project: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run(
        [sys.executable, "-m", "ankigen", "build"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )


def _deck_bytes(deck: Path) -> bytes:
    with zipfile.ZipFile(deck) as archive:
        return b"".join(archive.read(name) for name in archive.namelist())


def test_a_changed_installed_package_at_the_same_version_rebuilds(tmp_path: Path) -> None:
    """card.css, a template and a module of an installed copy: each edit rebuilds the deck."""
    copy = _copy(tmp_path)
    project = tmp_path / "project"
    (project / "content").mkdir(parents=True)
    (project / "content" / "deck.md").write_text("# D\n\nQ? ::: A, $x^2$.\n", "utf-8")
    assert "wrote " in _build(copy.parent, project).stdout
    assert "already up to date" in _build(copy.parent, project).stdout

    with (copy / "package" / "card.css").open("a", encoding="utf-8") as css:
        css.write("\n.card { outline: 1px solid rgb(1, 2, 3); }\n")
    assert "wrote " in _build(copy.parent, project).stdout
    assert b"rgb(1, 2, 3)" in _deck_bytes(project / "build" / "deck.apkg")

    for edited in ("templates/init/deck.md.tmpl", "render/_formula_html.py"):
        with (copy / edited).open("a", encoding="utf-8") as file:
            file.write("\n# edited\n" if edited.endswith(".py") else "\nedited\n")
        assert "wrote " in _build(copy.parent, project).stdout, edited


def test_the_media_pack_and_index_are_keyed_by_the_recipe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deflated media (zlib's version is in the recipe) and cached images of other code:
    neither is reused."""
    cache = MediaCache(tmp_path / "cache")
    media = [
        cache.put(f"m{i}.svg", f"<svg>{i}</svg>".encode() * 50, (1.0, 2.0, 0.5)) for i in range(3)
    ]
    cache.save_index()
    with MediaPack(cache, "deck") as pack:
        for file in media:
            pack.deflated(file)
        pack.save()
    with MediaPack(cache, "deck") as pack:
        for file in media:
            pack.deflated(file)
        assert pack.reused == 3
    assert MediaCache(cache.folder).has("m0.svg")
    monkeypatch.setattr(recipe, "code_fingerprint", lambda *_: "another zlib")
    with MediaPack(cache, "deck") as pack:
        for file in media:
            pack.deflated(file)
        assert pack.reused == 0
    assert not MediaCache(cache.folder).has("m0.svg")
