"""A build runs without cyclic garbage collection, and gives it back afterwards."""

from __future__ import annotations

import gc
from pathlib import Path

from pytest import MonkeyPatch

from ankigen.commands import build
from ankigen.commands.discover import ContentFile
from ankigen.gcpause import no_cyclic_gc, resume_in_worker


def test_collection_is_paused_inside_and_restored_after() -> None:
    assert gc.isenabled()
    with no_cyclic_gc():
        assert not gc.isenabled()
        assert gc.get_freeze_count() > 0  # what existed before is out of every collection
        with no_cyclic_gc():  # nested: the outer pause stays in charge
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_collection_is_restored_after_an_error() -> None:
    try:
        with no_cyclic_gc():
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert gc.isenabled()


def test_a_worker_turns_collection_back_on() -> None:
    with no_cyclic_gc():
        resume_in_worker()
        assert gc.isenabled()
        gc.disable()  # as the pause left it, so that it restores cleanly
    assert gc.isenabled()


def test_a_build_runs_with_collection_paused(tmp_path: Path, monkeypatch: MonkeyPatch) -> None:
    seen: list[bool] = []

    def discover(paths: object) -> list[ContentFile]:
        seen.append(gc.isenabled())
        return []

    monkeypatch.setattr(build, "discover", discover)
    build.run(build.BuildOptions((tmp_path,), tmp_path / "out", tmp_path / "figures"))
    assert seen == [False]
    assert gc.isenabled()
