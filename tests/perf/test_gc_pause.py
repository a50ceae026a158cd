"""A build leaves Python's cyclic garbage collector as it is: there is no GC pause.

A pause of the collector for the whole build (``build/gcpause.py``, removed)
saved no measurable CPU on the 10,000-item bank (a mathjax build without
cache: 5.5-6.0 s of CPU with the pause or without), and it imposed a rule no
code could see: no reference cycle anywhere in a build, or it was never freed.
"""

from __future__ import annotations

import gc
from pathlib import Path

from pytest import MonkeyPatch

from ankigen.build.discover import ContentFile
from ankigen.commands import build


def test_a_build_runs_with_the_collector_as_it_found_it(
    tmp_path: Path, monkeypatch: MonkeyPatch
) -> None:
    seen: list[bool] = []

    def discover(paths: object) -> list[ContentFile]:
        seen.append(gc.isenabled())
        return []

    monkeypatch.setattr(build, "discover", discover)
    build.run(build.BuildOptions((tmp_path,), tmp_path / "out", tmp_path / "figures"))
    assert seen == [True]
    assert gc.isenabled() and gc.get_freeze_count() == 0
