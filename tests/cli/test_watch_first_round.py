"""The first round of ``watch``: a deck already up to date still gets its preview page."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ankigen.cli.app import main
from ankigen.cli.options import resolve
from ankigen.commands.watch import rebuild, watched_folders


def test_an_up_to_date_deck_without_a_page_gets_one(tmp_path: Path) -> None:
    assert CliRunner().invoke(main, ["init", str(tmp_path / "deck")]).exit_code == 0
    content = tmp_path / "deck" / "content"
    assert CliRunner().invoke(main, ["build", str(content)]).exit_code == 0
    options = resolve((content,))
    preview_dir = tmp_path / "deck" / "build" / "preview"

    first = rebuild(options, preview_dir)

    assert first.build is not None and not first.build.failed
    assert first.build.written == ()  # nothing to build again
    assert [page.path for page in first.pages] == [preview_dir / "deck.html"]
    assert first.pages[0].cards == 10
    assert watched_folders(options) == (
        content.resolve(),
        (tmp_path / "deck" / "figures").resolve(),
    )


def test_a_round_that_cannot_run_says_why_and_does_not_raise(tmp_path: Path) -> None:
    assert CliRunner().invoke(main, ["init", str(tmp_path / "deck")]).exit_code == 0
    content = tmp_path / "deck" / "content"
    options = resolve((content,))
    (content / "deck.md").unlink()

    round_ = rebuild(options, tmp_path / "deck" / "build" / "preview")

    assert round_.build is None
    assert round_.problem is not None and "no content files" in round_.problem
