"""The install line ``ankigen init`` writes into the workflow (PEP 610 ``direct_url.json``).

Each test gives the ``direct_url.json`` an installer would have written as
a parameter; a checkout is a real git repository made in the test.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import yaml

from ankigen.build.install_source import InstallLine, install_line, read_direct_url
from ankigen.commands.init import project_files

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def workflow_steps(root: Path, install: InstallLine) -> list[dict[str, str]]:
    text = project_files(root, install)[root / ".github" / "workflows" / "decks.yml"]
    steps: list[dict[str, str]] = yaml.safe_load(text)["jobs"]["decks"]["steps"]
    return steps


def install_step(root: Path, install: InstallLine) -> str:
    text = project_files(root, install)[root / ".github" / "workflows" / "decks.yml"].decode()
    start = text.index("      - name: Install ankigen")
    return text[start : text.index("      - name:", start + 1)]


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def checkout(tmp_path: Path, remote: str | None) -> tuple[Path, str]:
    """A git checkout of 'ankigen' with one commit (and an origin when given)."""
    folder = tmp_path / "ankigen-checkout"
    folder.mkdir()
    git(folder, "init", "-q")
    (folder / "README.md").write_text("ankigen\n")
    git(folder, "add", "README.md")
    git(folder, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first")
    if remote:
        git(folder, "remote", "add", "origin", remote)
    return folder, git(folder, "rev-parse", "HEAD")


def test_installed_from_a_git_url_pins_its_commit(tmp_path: Path) -> None:
    direct_url = read_direct_url(
        '{"url": "https://github.com/someone/ankigen.git", '
        f'"vcs_info": {{"vcs": "git", "commit_id": "{COMMIT}", "requested_revision": "main"}}}}'
    )
    install = install_line(direct_url, "0.1.0")
    expected = f'pip install "ankigen @ git+https://github.com/someone/ankigen.git@{COMMIT}"'
    assert install.command == expected
    assert install_step(tmp_path, install) == (
        "      - name: Install ankigen\n"
        "        # The ankigen this project was started with (installed from\n"
        "        # git+https://github.com/someone/ankigen.git).\n"
        "        # To change it, pin another commit or tag:\n"
        '        #   pip install "ankigen @ git+https://github.com/OWNER/ankigen@REF"\n'
        "        # or, once ankigen is published on PyPI:\n"
        '        #   pip install "ankigen==0.1.0"\n'
        "        run: |\n"
        f"          {expected}\n"
    )
    commands = [step.get("run", "") for step in workflow_steps(tmp_path, install)]
    assert commands[2] == expected + "\n"


def test_installed_from_a_git_checkout_names_its_remote_at_its_commit(tmp_path: Path) -> None:
    folder, commit = checkout(tmp_path, "git@github.com:someone/ankigen.git")
    direct_url = {"url": folder.as_uri(), "dir_info": {"editable": True}}
    install = install_line(direct_url, "0.1.0")
    assert install.command == (
        f'pip install "ankigen @ git+https://github.com/someone/ankigen.git@{commit}"'
    )
    assert "a checkout of git+https://github.com/someone/ankigen.git" in install.comment


def test_a_checkout_without_a_remote_is_named_at_its_commit_with_a_warning(
    tmp_path: Path,
) -> None:
    folder, commit = checkout(tmp_path, None)
    install = install_line({"url": folder.as_uri(), "dir_info": {}}, "0.1.0")
    assert install.command == f'pip install "ankigen @ git+{folder.as_uri()}@{commit}"'
    assert install.comment == (
        "The folder ankigen was installed from is only on the machine that ran "
        "ankigen init: push it and write its URL here."
    )


def test_a_checkout_cloned_from_a_folder_names_that_folder(tmp_path: Path) -> None:
    folder, commit = checkout(tmp_path, str(tmp_path / "upstream"))
    install = install_line({"url": folder.as_uri(), "dir_info": {}}, "0.1.0")
    upstream = (tmp_path / "upstream").as_uri()
    assert install.command == f'pip install "ankigen @ git+{upstream}@{commit}"'
    assert install.comment == (  # CI cannot reach a folder on this machine
        "The folder ankigen was installed from is only on the machine that ran "
        "ankigen init: push it and write its URL here."
    )


def test_a_folder_that_is_no_checkout_is_named_as_a_file_url(tmp_path: Path) -> None:
    install = install_line({"url": tmp_path.as_uri(), "dir_info": {}}, "0.1.0")
    assert install.command == f'pip install "ankigen @ {tmp_path.as_uri()}"'


def test_installed_from_an_index_pins_the_released_version(tmp_path: Path) -> None:
    for record in (None, read_direct_url(""), read_direct_url("not json")):
        install = install_line(record, "0.1.0")
        assert install.command == 'pip install "ankigen==0.1.0"'
        assert install.comment == "The released ankigen this project was started with."


def test_installed_from_an_archive_url_names_it() -> None:
    url = "https://example.org/ankigen-0.1.0-py3-none-any.whl"
    install = install_line({"url": url, "archive_info": {}}, "0.1.0")
    assert install.command == f'pip install "ankigen @ {url}"'


def test_the_workflow_builds_against_the_latest_release(tmp_path: Path) -> None:
    install = install_line(None, "0.1.0")
    steps = workflow_steps(tmp_path, install)
    names = [step.get("name", step.get("uses", "")) for step in steps]
    fetch = names.index("Fetch the decks of the latest release")
    build = names.index("Build every deck against them, warnings fail")
    assert names.index("Install ankigen") < fetch < build
    assert steps[fetch]["run"] == (
        "mkdir -p previous\n"
        "gh release download --pattern '*.apkg' --dir previous \\\n"
        '  || echo "No earlier release: every note is new."\n'
    )
    assert steps[build]["run"] == "ankigen build --strict --format github --against previous"


def test_a_fork_is_built_with_the_same_ankigen(tmp_path: Path) -> None:
    """The fork job installs what the main job installs, not a release that may not exist."""
    folder, commit = checkout(tmp_path, "https://github.com/someone/ankigen.git")
    install = install_line({"url": folder.as_uri(), "dir_info": {}}, "0.1.0")
    text = project_files(tmp_path, install)[tmp_path / ".github" / "workflows" / "decks.yml"]
    jobs = yaml.safe_load(text)["jobs"]
    installs = {
        name: [step["run"] for step in job["steps"] if step.get("name") == "Install ankigen"]
        for name, job in jobs.items()
    }
    expected = f'pip install "ankigen @ git+https://github.com/someone/ankigen.git@{commit}"\n'
    assert installs == {"decks": [expected], "fork": [expected]}
