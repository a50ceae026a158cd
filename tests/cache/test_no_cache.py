"""``--no-cache`` and the cache give the same decks and the same diagnostics.

Each fixture is built four times with ``SOURCE_DATE_EPOCH`` fixed: twice with
``--no-cache`` (each into its own output folder, which must stay without
``.cache``) and twice with the cache into one folder, cold and then warm (the
deck removed between them, so the warm build is not skipped by its stamp but
reuses every cache: sections, checks, notes, SVG images, the media pack and
the formula images). All four must print the same diagnostics and write the
same bytes.

The fixtures are a representative subset, to keep the run short: the seed
deck (formula images and figures), a generated bank of 1,000 items
(``benchmarks/bench.py``, MathJax: the parse, check and note caches at scale),
hostile cases that build and that are refused, and bad-input scenarios from
every stage (parse, check, formula, figure, image, front matter).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from ankigen.cache import STORE_NAME
from tests.bench_bank import generated_bank
from tests.reliability.support import run_cli

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "hostile" / "cases"
BAD_INPUT = ROOT / "tests" / "reliability" / "bad_input"


@dataclass(frozen=True)
class Fixture:
    """A project to build: its content and figures folders come from ``source``."""

    name: str
    source: Path | None
    math: str = "image"
    #: The build writes a deck (else it fails, and writes none).
    builds: bool = False


FIXTURES = [
    Fixture("seed", ROOT, builds=True),
    Fixture("bench-1k", None, "mathjax", builds=True),
    *(
        Fixture(f"hostile-{name}", HOSTILE / name, math, builds)
        for name, math, builds in [
            ("anki-commands-in-formula", "image", True),
            ("cloze-nested-hints", "mathjax", True),
            ("media-svg-as-png", "mathjax", False),
            ("nfc-composition", "image", True),
        ]
    ),
    *(
        Fixture(f"bad-{name}", BAD_INPUT / name)
        for name in [
            "check-failing-eq",
            "cloze-tex-no-space",
            "duplicate-guid",
            "figure-raises",
            "image-missing",
            "tex-unknown-command",
            "unknown-front-matter-key",
        ]
    ),
]


def _project(fixture: Fixture, work: Path) -> None:
    """The fixture's content and figures folders, copied into ``work``."""
    (work / "figures").mkdir(parents=True)
    if fixture.source is None:
        bank = generated_bank(1000)
        (work / "content").mkdir()
        (work / "content" / "bank.md").write_text(bank, "utf-8")
        return
    shutil.copytree(fixture.source / "content", work / "content", symlinks=True)
    if (fixture.source / "figures").is_dir():
        shutil.copytree(fixture.source / "figures", work / "figures", dirs_exist_ok=True)


def _build(
    fixture: Fixture, out: str, *extra: str, warm: bool = False
) -> tuple[str, dict[str, bytes]]:
    """One build's diagnostics (standard error) and the decks it left in ``out``."""
    args = ["build", "content", "--out", out, "--figures", "figures", "--math", fixture.math]
    result = run_cli([*args, "-j", "1", *extra])
    assert result.exit_code in (0, 1), result.output
    if warm and fixture.builds:
        assert "images: 0 rendered" in result.stdout, result.stdout  # all from the cache
    decks = {p.name: p.read_bytes() for p in sorted(Path(out).glob("*.apkg"))}
    return result.stderr, decks


@pytest.mark.parametrize("fixture", FIXTURES, ids=[f.name for f in FIXTURES])
def test_no_cache_builds_what_the_cache_builds(
    fixture: Fixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(fixture, tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")

    fresh = _build(fixture, "fresh-1", "--no-cache")
    assert _build(fixture, "fresh-2", "--no-cache") == fresh
    assert not Path("fresh-1/.cache").exists() and not Path("fresh-2/.cache").exists()

    assert _build(fixture, "cached") == fresh  # cold
    assert Path("cached/.cache").is_dir()
    for deck in Path("cached").glob("*.apkg"):
        deck.unlink()  # not up to date: the warm build reuses every cache instead
    assert _build(fixture, "cached", warm=True) == fresh
    _holds_only_the_store_and_media(Path("cached/.cache"))

    assert bool(fresh[1]) == fixture.builds, fresh[0]


#: What a cache folder may hold besides media files: the store (with SQLite's own files).
STORE_FILES = {STORE_NAME, f"{STORE_NAME}-wal", f"{STORE_NAME}-shm"}


def _holds_only_the_store_and_media(cache: Path) -> None:
    """The one store (with SQLite's own files), and media files named by hash: no key, no lock."""
    assert (cache / STORE_NAME).is_file()
    others = [p.name for p in cache.iterdir() if p.name not in STORE_FILES]
    assert all(name.startswith("ag-") and (cache / name).is_file() for name in others), others


@pytest.mark.parametrize("command", ["check", "preview"])
def test_check_and_preview_with_no_cache_leave_no_cache(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(FIXTURES[0], tmp_path)  # the seed deck: formula images and figures
    monkeypatch.chdir(tmp_path)
    out = ["--out", "out"] if command == "check" else []
    result = run_cli([command, "content", *out, "--figures", "figures", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert not Path("out/.cache").exists() and not Path("build/.cache").exists()
    if command == "preview":
        assert Path("build/preview/distributed-training.html").is_file()


@pytest.mark.parametrize("command", ["build", "check", "preview", "watch"])
def test_no_cache_is_documented_with_an_example(command: str) -> None:
    shown = run_cli([command, "--help"]).output
    assert "--no-cache" in shown
    assert f"ankigen {command} --no-cache" in shown
