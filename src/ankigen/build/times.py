"""The times a deck is stamped with, so two builds of one commit are identical.

Anki updates a re-imported note only when the incoming note is newer, so
each note carries the time of the inputs it depends on (its content file,
the figure scripts and images it shows, the project settings):

- ``SOURCE_DATE_EPOCH`` (the reproducible-builds convention) wins for all;
- a committed, unmodified input has the commit time of HEAD;
- an uncommitted input (modified, untracked, ignored) has its file time,
  never earlier than HEAD: an edit on top of a commit is newer than it;
- outside git, every input has its file time.

Why HEAD and not the newest commit that touched the input: a
``git clone --depth 1`` (what most CI checkouts are) has no history, so
``git log -- FILE`` would answer HEAD there and an older commit in a full
clone. Only HEAD's time is the same in both, and the same bytes on every
clone matter more than keeping unchanged notes' times. The price: every
release re-stamps every note, so Anki re-writes unchanged notes (same
fields, review history untouched). The README's identity section says so.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable
from pathlib import Path


def source_date_epoch() -> float | None:
    """``SOURCE_DATE_EPOCH`` as seconds, when it is set to a number."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    return float(epoch) if epoch.isdigit() else None


class BuildClock:
    """Answers "how new is this input?" for one build, asking git once, not per note."""

    def __init__(self, project: Path) -> None:
        self._project = project
        self._epoch = source_date_epoch()
        self._head: float | None = None
        self._asked_head = False
        self._dirty: dict[Path, bool] = {}
        self._root: Path | None = None
        self._times: dict[Path, int] = {}

    def time_of(self, inputs: Iterable[Path]) -> float:
        """The time of the newest of ``inputs`` (seconds since the epoch, whole seconds)."""
        if self._epoch is not None:
            return self._epoch
        return float(max((self._time(p) for p in inputs), default=self._head_time() or 0))

    def _time(self, path: Path) -> int:
        """One input's time, worked out once per build (a build sees one snapshot)."""
        known = self._times.get(path)
        if known is not None:
            return known
        resolved = path.resolve()
        head = self._head_time()
        self.learn([resolved])
        if head is None:
            known = int(_file_time(resolved))  # outside git: the file's own time
        elif self._dirty[resolved]:
            known = max(int(head), int(_file_time(resolved)))
        else:
            known = int(head)
        self._times[path] = known
        return known

    def _head_time(self) -> float | None:
        if not self._asked_head:
            self._asked_head = True
            out = git_output(self._project, "log", "-1", "--format=%ct", "HEAD")
            self._head = float(out) if out and out.isdigit() else None
        return self._head

    def learn(self, inputs: Iterable[Path]) -> None:
        """Ask git once about every input not asked about yet (call it with many at once)."""
        if self._epoch is not None or self._head_time() is None:
            return
        unknown = sorted({p.resolve() for p in inputs} - set(self._dirty))
        if not unknown:
            return
        root = self._toplevel()
        # A file outside the work tree is not committed: it has its own time.
        self._dirty.update((p, not p.is_relative_to(root)) for p in unknown)
        inside = [p for p in unknown if p.is_relative_to(root)]
        for start in range(0, len(inside), _PATHS_PER_CALL):
            self._ask_status(root, inside[start : start + _PATHS_PER_CALL])

    def _ask_status(self, root: Path, paths: list[Path]) -> None:
        """Mark the paths ``git status`` lists (modified, untracked, ignored) as uncommitted."""
        out = git_output(
            self._project,
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
            "--ignored=matching",
            "--",
            *(str(p) for p in paths),
        )
        if out is None:  # git failed: treat these inputs as uncommitted
            self._dirty.update(dict.fromkeys(paths, True))
            return
        changed = [(root / name).resolve() for name in _status_paths(out)]
        for path in paths:
            self._dirty[path] = any(path == c or c in path.parents for c in changed)

    def _toplevel(self) -> Path:
        """The work tree's top folder, which ``git status`` paths are relative to."""
        if self._root is None:
            top = git_output(self._project, "rev-parse", "--show-toplevel")
            self._root = Path(top).resolve() if top else self._project.resolve()
        return self._root


def _status_paths(porcelain: str) -> list[str]:
    """Paths in ``git status --porcelain=v1 -z`` output (a rename's old name skipped)."""
    entries = porcelain.split("\0")
    paths: list[str] = []
    skip = False
    for entry in entries:
        if skip or len(entry) < 4:
            skip = False
            continue
        paths.append(entry[3:].rstrip("/"))
        skip = entry[0] in "RC"
    return paths


#: Paths per ``git status`` call, to stay far below the system's argument-size limit.
_PATHS_PER_CALL = 500


def _file_time(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def git_output(cwd: Path, *args: str) -> str | None:
    """Run git quietly in ``cwd``; its output, None when git is missing, fails or this is
    not a repository."""
    try:
        result = subprocess.run(
            ["git", "--literal-pathspecs", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
            env={**os.environ, "LC_ALL": "C"},
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout.strip("\n") if result.returncode == 0 else None
