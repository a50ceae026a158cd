"""An item's passing checks are reused only while everything they read is the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.cache import Store, recipe, store_values, stored_values
from ankigen.check import ProvenChecks, _run, check_deck
from ankigen.model import Deck
from ankigen.parse import parse_text

TEXT = """\
# Proven

How many layers? ::: {{c1::128}} layers, about 3.5x deeper.

```check
assert `128` == 2^7
assert 1 + 1 == 2
```

Another one ::: 7 is prime.

```check
assert `7` == 7
```
"""


def _deck(text: str = TEXT) -> Deck:
    deck = parse_text(text, Path("p.md"), Path("."), "p.md").deck
    assert deck is not None
    return deck


def _fail_if_run(*args: object, **kwargs: object) -> None:
    raise AssertionError("checks ran again")


def test_a_reused_run_reports_what_a_fresh_run_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checks = ProvenChecks(Store(tmp_path), "p")
    fresh = check_deck(_deck(), proven=checks)
    assert fresh.checks == 3 and fresh.failed == 0
    assert any(d.code == "AG201" for d in fresh.diagnostics)  # `3.5x` is unverified
    assert set(checks.known(_deck(), 5.0)) == {0, 1}
    monkeypatch.setattr(_run, "run_checks", _fail_if_run)  # nothing new: sympy is not needed
    assert check_deck(_deck(), proven=checks) == fresh


def test_an_edited_check_runs_again_and_a_failing_one_is_not_recorded(tmp_path: Path) -> None:
    checks = ProvenChecks(Store(tmp_path), "p")
    check_deck(_deck(), proven=checks)
    failing = _deck(TEXT.replace("assert `7` == 7", "assert `7` == 8"))
    report = check_deck(failing, proven=checks)
    assert report.failed == 1 and report == check_deck(failing)
    assert set(checks.known(failing, 5.0)) == {0}
    assert checks.known(_deck(TEXT.replace("assert 1 + 1", "assert 2 + 0")), 5.0) == {}


def test_an_item_that_only_moved_is_still_known(tmp_path: Path) -> None:
    checks = ProvenChecks(Store(tmp_path), "p")
    check_deck(_deck(), proven=checks)
    moved = _deck(TEXT.replace("# Proven\n", "# Proven\n\nTwo more\nlines.\n"))
    assert set(checks.known(moved, 5.0)) == {0, 1}
    reused = check_deck(moved, proven=checks)
    assert reused == check_deck(moved)  # the same diagnostics, at the moved lines
    assert any(d.code == "AG201" and d.line == 6 for d in reused.diagnostics)


def test_another_tool_version_or_time_limit_reuses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checks = ProvenChecks(Store(tmp_path), "p")
    check_deck(_deck(), proven=checks)
    assert checks.known(_deck(), 5.0) and not checks.known(_deck(), 6.0)
    monkeypatch.setattr(recipe, "code_fingerprint", lambda *_: "another version")
    assert checks.known(_deck(), 5.0) == {}


def test_a_damaged_record_is_ignored(tmp_path: Path) -> None:
    store = Store(tmp_path)
    check_deck(_deck(), proven=ProvenChecks(store, "p"))
    keys = list(stored_values(store, "checks", "p"))
    assert len(keys) == 2
    for junk in (b"", b"junk", b"\xe9\x00\x00\x00\x00", b"[\x01\x00\x00\x00\xda\x04Item"):
        store_values(store, "checks", "p", dict.fromkeys(keys, junk))
        assert ProvenChecks(store, "p").known(_deck(), 5.0) == {}
    assert check_deck(_deck(), proven=ProvenChecks(store, "p")) == check_deck(_deck())
