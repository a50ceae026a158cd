"""``ankigen watch`` reports the files a batch of events changed, not an editor's temporary
files made and removed within it (``sed -i`` writes ``sedXXXXXX`` beside the file)."""

from __future__ import annotations

from pathlib import Path

from watchfiles import Change

from ankigen.commands.watch import net_changes


def test_a_file_made_and_removed_within_the_batch_changed_nothing(tmp_path: Path) -> None:
    saved = tmp_path / "deck.md"
    saved.write_text("q ::: a\n", "utf-8")
    passing = str(tmp_path / "sedYs3Fvr")
    batch = {
        (Change.added, passing),
        (Change.deleted, passing),
        (Change.modified, str(saved)),
    }
    assert net_changes(batch) == (saved,)


def test_a_removed_file_and_a_file_made_again_are_changes(tmp_path: Path) -> None:
    again = tmp_path / "again.md"
    again.write_text("q ::: a\n", "utf-8")
    gone = str(tmp_path / "gone.md")
    batch = {(Change.deleted, gone), (Change.added, str(again)), (Change.deleted, str(again))}
    assert net_changes(batch) == tuple(sorted((Path(gone), again)))


def test_a_batch_of_passing_files_alone_changes_nothing(tmp_path: Path) -> None:
    passing = str(tmp_path / ".deck.md.swx")
    assert net_changes({(Change.added, passing), (Change.deleted, passing)}) == ()
