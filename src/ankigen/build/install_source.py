"""How the running ankigen was installed, as the line a CI workflow installs it with.

``ankigen init`` writes a workflow that must install the same ankigen on a
fresh machine. PEP 610 records how pip installed a distribution, in its
``direct_url.json``: a VCS URL at a commit, a local folder (a checkout,
``pip install .``), an archive URL; none when it came from an index. Each
gives the line that reinstalls it there:

- from a VCS: ``pip install "ankigen @ git+URL@COMMIT"``;
- from a local folder that is a git checkout with a remote: that remote at
  the checkout's commit (a folder on this machine is not on the CI's; a
  remote that is a folder too gets the comment below);
- from a local folder without one: the folder (``git+file:///…@COMMIT``
  for a checkout), with a comment that CI cannot reach it;
- from an index: ``pip install "ankigen==VERSION"``.
"""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from ankigen import __version__
from ankigen.build.times import git_output

#: An scp-like git remote (``git@github.com:owner/repo.git``), read as https.
_SCP_REMOTE = re.compile(r"^[\w.-]+@(?P<host>[\w.-]+):(?P<path>[^/].*)$")


@dataclass(frozen=True)
class InstallLine:
    """The workflow's install command, and a sentence saying where it installs from.

    The workflow template says below the sentence how to change the line.
    """

    command: str
    comment: str
    #: False for a folder on this machine, which a CI runner cannot install from.
    reachable: bool = True


def running_install() -> InstallLine:
    """The install line for the ankigen that is running now."""
    try:
        distribution = metadata.distribution("ankigen")
    except metadata.PackageNotFoundError:  # run from sources on PYTHONPATH
        return install_line(None, __version__)
    return install_line(read_direct_url(distribution.read_text("direct_url.json")), __version__)


def read_direct_url(text: str | None) -> dict[str, Any] | None:
    """The parsed ``direct_url.json``, or None when it is missing or not a JSON object."""
    if not text:
        return None
    try:
        record = json.loads(text)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def install_line(direct_url: dict[str, Any] | None, version: str) -> InstallLine:
    """The install line for an ankigen installed as ``direct_url`` (PEP 610) says."""
    url = direct_url.get("url") if direct_url else None
    if not isinstance(url, str) or direct_url is None:
        return _released(version)
    vcs = direct_url.get("vcs_info")
    if isinstance(vcs, dict) and isinstance(vcs.get("commit_id"), str):
        kind = vcs.get("vcs", "git")
        return _at_commit(f"{kind}+{url}", vcs["commit_id"], "installed from")
    if isinstance(direct_url.get("dir_info"), dict) and url.startswith("file:"):
        return _from_folder(Path(urllib.request.url2pathname(urllib.parse.urlparse(url).path)))
    comment = "The archive this ankigen was installed from."
    return InstallLine(f'pip install "ankigen @ {url}"', comment)


def _released(version: str) -> InstallLine:
    comment = "The released ankigen this project was started with."
    return InstallLine(f'pip install "ankigen=={version}"', comment)


def _at_commit(url: str, commit: str, how: str) -> InstallLine:
    comment = f"The ankigen this project was started with ({how} {url})."
    return InstallLine(f'pip install "ankigen @ {url}@{commit}"', comment)


def _from_folder(folder: Path) -> InstallLine:
    """A checkout's remote at its commit; else the folder, which CI cannot reach."""
    commit = _git(folder, "rev-parse", "HEAD")
    remote = _git(folder, "remote", "get-url", "origin")
    comment = (
        "The folder ankigen was installed from is only on the machine that ran "
        "ankigen init: push it and write its URL here."
    )
    if commit and remote:
        url = _clone_url(remote)
        if url.startswith("file:"):  # a clone of a folder: CI cannot reach that one either
            return InstallLine(f'pip install "ankigen @ git+{url}@{commit}"', comment, False)
        return _at_commit(f"git+{url}", commit, "a checkout of")
    if commit:  # a checkout without a remote: its commit, in a URL pip reads
        command = f'pip install "ankigen @ git+{folder.as_uri()}@{commit}"'
        return InstallLine(command, comment, False)
    return InstallLine(f'pip install "ankigen @ {folder.as_uri()}"', comment, False)


def _clone_url(remote: str) -> str:
    """A git remote as a URL pip can clone.

    ``git@host:path`` becomes ``https://host/path`` (CI has no SSH key); a
    folder on this machine becomes a ``file://`` URL.
    """
    scp = _SCP_REMOTE.match(remote)
    if scp:
        return f"https://{scp['host']}/{scp['path']}"
    if "://" not in remote:
        return Path(remote).absolute().as_uri()
    return remote


def _git(folder: Path, *args: str) -> str | None:
    """Git's output in ``folder``; None when it fails or prints nothing (no such remote)."""
    output = git_output(folder, *args)
    return output.strip() or None if output is not None else None
