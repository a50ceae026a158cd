"""The time a deck is stamped with, so two builds of one commit are identical.

Order of preference: ``SOURCE_DATE_EPOCH`` (the reproducible-builds
convention), the time of the last git commit that touched the content, else
the content file's modification time. A later commit is a later time, which
is what lets Anki update re-imported notes in place.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def build_time(content_file: Path) -> float:
    """Seconds since the epoch to use for every timestamp in this file's deck."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return float(epoch)
    committed = _git_commit_time(content_file)
    if committed is not None and not _is_modified(content_file):
        return committed
    return content_file.stat().st_mtime


def _git(content_file: Path, *args: str) -> str | None:
    try:
        result = subprocess.run(
            ["git", *args, "--", content_file.name],
            cwd=content_file.parent,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout.strip() if result.returncode == 0 else None


def _git_commit_time(content_file: Path) -> float | None:
    out = _git(content_file, "log", "-1", "--format=%ct")
    return float(out) if out and out.isdigit() else None


def _is_modified(content_file: Path) -> bool:
    """An uncommitted edit is newer than the last commit: use the file's time."""
    out = _git(content_file, "status", "--porcelain")
    return bool(out)
