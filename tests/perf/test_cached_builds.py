"""A build from a warm media pack writes the bytes a cold build of the same content writes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ankigen.render import MediaCache
from tests.reliability.support import repro_project, run_cli


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return repro_project(tmp_path, monkeypatch)


def _build(out: str, *extra: str) -> bytes:
    result = run_cli(["build", "content", "--out", out, "--figures", "figures", *extra])
    assert result.exit_code == 0, result.output
    return (Path(out) / "repro.apkg").read_bytes()


def _edit(project: Path, old: str, new: str) -> None:
    source = project / "content" / "repro.md"
    text = source.read_text("utf-8")
    assert old in text
    source.write_text(text.replace(old, new, 1), "utf-8")


@pytest.mark.parametrize("math", ["image", "mathjax"])
def test_edits_from_a_warm_pack_match_cold_builds(project: Path, math: str) -> None:
    _build("out", "--math", math)
    assert MediaCache(project / "out" / ".cache").store.scope("pack", "repro")
    for old, new in (
        ("One dot.", "One small dot."),  # an answer
        ("$S = k$", "$S = k + 0$"),  # a formula: one new image, the rest from the pack
    ):
        _edit(project, old, new)
        warm = _build("out", "--math", math)
        shutil.rmtree(project / "cold", ignore_errors=True)
        cold = _build("cold", "--math", math)
        assert warm == cold, f"after {new!r}"


def test_a_changed_image_is_shipped_anew(project: Path) -> None:
    _build("out", "--math", "mathjax")
    image = project / "content" / "dot.png"
    image.write_bytes(image.read_bytes() + b"\0")  # another file, another size
    warm = _build("out", "--math", "mathjax")
    cold = _build("cold", "--math", "mathjax")
    assert warm == cold
