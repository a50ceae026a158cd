"""Each note's time, worked out once per set of inputs, is the time worked out per note."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import cast

from ankigen.build.release import deck_times
from ankigen.build.times import BuildClock
from ankigen.model import RenderedDeck


class _Clock:
    """A clock whose time of a set of inputs is the newest of made-up file times."""

    def __init__(self, times: dict[Path, float]) -> None:
        self.times = times
        self.calls = 0

    def time_of(self, inputs: list[Path]) -> float:
        self.calls += 1
        return max(self.times[path] for path in inputs)


def test_note_times_equal_the_per_note_times() -> None:
    deck, settings, a, b = Path("deck.md"), Path("pyproject.toml"), Path("a.png"), Path("b.png")
    clock = _Clock({deck: 10.0, settings: 5.0, a: 30.0, b: 7.0})
    shown = [(), (a,), (), (b,), (a, b), (), (a,)]
    notes = [SimpleNamespace(guid=f"g{i}", sources=s) for i, s in enumerate(shown)]
    rendered = cast(RenderedDeck, SimpleNamespace(deck=SimpleNamespace(path=deck), notes=notes))
    times = deck_times(rendered, cast(BuildClock, clock), [settings])
    per_note = {n.guid: clock.time_of([deck, settings, *n.sources]) for n in notes}
    assert times.notes == per_note
    assert times.deck == max([10.0, *per_note.values()]) == 30.0
    assert clock.calls == 4 + 1 + len(notes)  # 4 distinct input sets and the deck's own
