"""Which changes ``ankigen watch`` rebuilds for (imported only by ``watch``: watchfiles is big)."""

from __future__ import annotations

from pathlib import Path

import watchfiles

__all__ = ["InputsFilter"]


class InputsFilter(watchfiles.DefaultFilter):
    """watchfiles' default filter (editor swap files, caches, .git), minus the build's own
    output and the temporary files of atomic writes."""

    def __init__(self, *outputs: Path) -> None:
        super().__init__()
        self._outputs = tuple(str(folder.resolve()) for folder in outputs)

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        name = Path(path).name
        if name.startswith(".") and name.endswith(".tmp"):
            return False
        if any(path == out or path.startswith(out + "/") for out in self._outputs):
            return False
        return super().__call__(change, path)
