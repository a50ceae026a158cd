"""A build runs without cyclic garbage collection, and gives it back afterwards."""

from __future__ import annotations

import gc
import shutil
from collections.abc import Callable
from pathlib import Path

from pytest import MonkeyPatch

from ankigen.build.discover import ContentFile
from ankigen.build.gcpause import no_cyclic_gc, resume_in_worker
from ankigen.commands import build
from ankigen.model import MathMode
from ankigen.package.anki_cards import cloze_ordinals


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


# With the collector paused, a cycle made during a build is never freed: a big
# deck would keep one per note. What a build makes must go by reference counting.
BANK = """# Optimisers

## Momentum

What does momentum keep? ::: A running mean of the gradients, $v = \\beta v + g$.

```check
cite $v = \\beta v + g$
```

{{c1::Adam}} keeps {{c2::two}} moments of the gradient.
<!-- id: adam -->

The ==learning rate== scales {{c1::every {{c2::step}}}}.
"""


def _cyclic_garbage(run: Callable[[], object]) -> int:
    gc.collect()
    with no_cyclic_gc():
        run()
        return gc.collect()  # what reference counting left behind


def test_counting_cloze_cards_leaves_no_cycles() -> None:
    assert _cyclic_garbage(lambda: cloze_ordinals("{{c1::a {{c2::b}}}} and {{c3::c}}")) == 0


def test_a_mathjax_build_leaves_no_cycles(tmp_path: Path) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "bank.md").write_text(BANK, encoding="utf-8")
    options = build.BuildOptions(
        (tmp_path / "content",), tmp_path / "out", tmp_path / "figures", math=MathMode.MATHJAX
    )
    build.run(options)  # first use: lazy imports and caches, made once per process
    shutil.rmtree(tmp_path / "out")
    result: list[build.BuildResult] = []
    assert _cyclic_garbage(lambda: result.append(build.run(options))) == 0
    assert result[0].summary.notes == 3
    assert not result[0].diagnostics
