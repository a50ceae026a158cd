"""Figure scripts are code: confined, they read only the project, write nothing, reach no one.

Each attack is a figure script in a small project, built through the CLI.
What the operating system does not allow here is skipped with its reason
(``ankigen.sandbox.confine.support``); the limits (memory, the deck's budget) hold
on every Unix.
"""

from __future__ import annotations

import socket
import sys
import time
from pathlib import Path

import pytest

from ankigen.cache import key_path
from ankigen.sandbox.confine import support
from tests.reliability.support import run_cli

LAYERS = support()
needs_files = pytest.mark.skipif(
    not LAYERS.files, reason="Landlock is not available here: a figure may read and write files"
)
needs_namespaces = pytest.mark.skipif(
    not (LAYERS.network and LAYERS.processes),
    reason="no network or process namespaces here (not Linux, or not allowed)",
)
SECRET = "TOP-SECRET-4711"


def build(tmp_path: Path, scripts: dict[str, str], settings: str = "") -> tuple[int, str]:
    """Build a project whose deck shows each figure of ``scripts``; exit code and messages."""
    project = tmp_path / "project"
    (project / "content").mkdir(parents=True)
    (project / "figures").mkdir(exist_ok=True)
    (project / "pyproject.toml").write_text(f"[tool.ankigen]\n{settings}", "utf-8")
    questions = []
    for number, (name, body) in enumerate(scripts.items()):
        (project / "figures" / f"{name}.py").write_text(body, "utf-8")
        questions.append(f"Q{number}? ::: ![plot](figure:{name})")
    (project / "content" / "deck.md").write_text(
        "# Figures\n\n" + "\n\n".join(questions) + "\n", "utf-8"
    )
    result = run_cli(["build", str(project / "content"), "--math", "mathjax"])
    assert "Traceback (most recent call last):\n  File" not in result.stderr.split("figure")[0]
    return result.exit_code, result.output


def script(body: str) -> str:
    """A figure script whose ``draw`` runs ``body`` first, then plots a line."""
    indented = "".join(f"    {line}\n" for line in body.strip().splitlines())
    return f"def draw(fig, formulas):\n{indented}    fig.add_subplot().plot([0, 1], [0, 1])\n"


@needs_files
@pytest.mark.parametrize("target", ["outside", "/etc/passwd", "home", "cache key"])
def test_a_figure_cannot_read_outside_the_project(
    tmp_path: Path, target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text(SECRET, "utf-8")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    key = key_path()  # the key that seals the build's cache rows: made by the build
    path = {
        "outside": str(secret),
        "/etc/passwd": "/etc/passwd",
        "home": str(Path.home()),
        "cache key": str(key),
    }[target]
    read = f"os.listdir({path!r}) if os.path.isdir({path!r}) else open({path!r}).read()"
    code, output = build(tmp_path, {"spy": script(f"import os\nraise RuntimeError(repr({read}))")})
    assert code == 1, output
    assert "PermissionError" in output
    assert SECRET not in output and "root:" not in output
    if target == "cache key":
        assert key.is_file()  # it was there to read


@needs_files
def test_a_figure_can_read_its_project(tmp_path: Path) -> None:
    """The positive control: data files of the project are readable."""
    body = (
        "from pathlib import Path\n"
        "data = (Path(__file__).parent / 'data.csv').read_text()\n"
        "assert data == '1,2\\n'"
    )
    (tmp_path / "project" / "figures").mkdir(parents=True)
    (tmp_path / "project" / "figures" / "data.csv").write_text("1,2\n", "utf-8")
    code, output = build(tmp_path, {"reader": script(body)})
    assert code == 0, output


@needs_files
@pytest.mark.parametrize("hidden", [".git/config", ".env", "link/secret.txt"])
def test_a_figure_cannot_read_the_projects_hidden_files_or_links_at_its_top(
    tmp_path: Path, hidden: str
) -> None:
    # A CI checkout keeps its token in .git/config while the build runs; a link at the
    # project's top that points elsewhere must not grant what it points to.
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / ".git" / "config").write_text(f"extraheader = AUTHORIZATION: {SECRET}", "utf-8")
    (project / ".env").write_text(f"TOKEN={SECRET}", "utf-8")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "secret.txt").write_text(SECRET, "utf-8")
    (project / "link").symlink_to(tmp_path / "elsewhere")
    (project / "data").mkdir()
    (project / "data" / "points.csv").write_text("1,2\n", "utf-8")
    body = (
        "from pathlib import Path\n"
        "top = Path(__file__).parents[1]\n"
        "assert (top / 'data' / 'points.csv').read_text() == '1,2\\n'\n"
        f"raise RuntimeError((top / {hidden!r}).read_text())"
    )
    code, output = build(tmp_path, {"spy": script(body)})
    assert code == 1, output
    assert "PermissionError" in output
    assert SECRET not in output


def test_a_figure_does_not_see_the_builds_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", SECRET)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    body = "import os\nraise RuntimeError(sorted(os.environ))"
    code, output = build(tmp_path, {"spy": script(body)})
    assert code == 1, output
    assert "GITHUB_TOKEN" not in output and "AWS_SECRET" not in output
    assert "MPLBACKEND" in output  # the child's own settings are there


@needs_files
@pytest.mark.parametrize("where", ["outside", "project", "tmp"])
def test_a_figure_cannot_write_outside_its_own_folder(tmp_path: Path, where: str) -> None:
    (tmp_path / "outside").mkdir()
    target = {
        "outside": tmp_path / "outside" / "pwned.txt",
        "project": tmp_path / "project" / "content" / "pwned.md",
        "tmp": Path("/tmp") / f"ankigen-pwned-{tmp_path.name}",
    }[where]
    code, output = build(tmp_path, {"writer": script(f"open({str(target)!r}, 'w').write('x')")})
    assert code == 1, output
    assert "PermissionError" in output
    assert not target.exists()


def test_a_figure_may_write_in_its_working_folder(tmp_path: Path) -> None:
    """Scratch files go to the figure's own folder, which is removed afterwards."""
    body = "import os, tempfile\nopen('scratch.txt', 'w').write('x')\ntempfile.mkstemp()"
    code, output = build(tmp_path, {"scratch": script(body)})
    assert code == 0, output


@needs_namespaces
def test_a_figure_cannot_reach_the_network(tmp_path: Path) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.setblocking(False)
        port = server.getsockname()[1]
        body = f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=5)"
        code, output = build(tmp_path, {"caller": script(body)})
        with pytest.raises(BlockingIOError):
            server.accept()  # nobody called
    assert code == 1, output
    assert "figure 'caller' failed: " in output


@needs_namespaces
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds processes in /proc")
def test_no_process_a_figure_starts_outlives_it(tmp_path: Path) -> None:
    name = f"ag-d{tmp_path.name[-10:]}".encode()[:15]
    body = (
        "import ctypes, os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        ctypes.CDLL(None).prctl(15, {name!r}, 0, 0, 0)\n"
        "        time.sleep(300)\n"
        "    os._exit(0)"
    )
    code, output = build(tmp_path, {"daemon": script(body)})
    assert code == 0, output
    for _ in range(100):  # the kernel ends them as the figure ends; give it a moment
        if not processes_named(name):
            break
        time.sleep(0.05)
    assert processes_named(name) == []


@needs_namespaces
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds processes in /proc")
def test_a_figure_that_leaves_its_process_group_itself_is_killed_at_its_limit(
    tmp_path: Path,
) -> None:
    """The script's own process calls ``setsid`` and sleeps: the build kills it by its id."""
    name = f"ag-s{tmp_path.name[-10:]}".encode()[:15]
    body = (
        "import ctypes, os, time\n"
        "os.setsid()\n"
        f"ctypes.CDLL(None).prctl(15, {name!r}, 0, 0, 0)\n"
        "while True:\n"
        "    try:\n"
        "        time.sleep(0.01)\n"
        "    except BaseException:\n"
        "        pass"
    )
    code, output = build(tmp_path, {"leaver": script(body)}, "figure-time-limit = 5\n")
    assert code == 1, output
    assert "figure 'leaver' did not finish within the figure time limit" in output
    for _ in range(100):
        if not processes_named(name):
            break
        time.sleep(0.05)
    assert processes_named(name) == []


def processes_named(name: bytes) -> list[int]:
    """Live processes whose name (``/proc/PID/comm``) is ``name``."""
    found = []
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_bytes().strip() != name:
                continue
            state = (comm.parent / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:  # it ended meanwhile
            continue
        if state != "Z":
            found.append(int(comm.parent.name))
    return found


@pytest.mark.skipif(sys.platform == "win32", reason="no child process without fork")
def test_a_figure_cannot_run_code_in_the_build_through_an_inherited_pipe(tmp_path: Path) -> None:
    """A pickle written to every inherited descriptor (the answer pipe, a pool's pipes)
    would run code in the build, which is not confined, if the build unpickled it."""
    sentinel = tmp_path / "outside" / "ran-in-the-build"
    sentinel.parent.mkdir()
    body = (
        "import os, pickle, struct\n"
        "class Evil:\n"
        "    def __reduce__(self):\n"
        f"        return (open, ({str(sentinel)!r}, 'w'))\n"
        "payload = pickle.dumps((True, Evil()))\n"
        "message = struct.pack('!i', len(payload)) + payload\n"
        "for fd in range(3, 1024):\n"
        "    try:\n"
        "        os.write(fd, message)\n"
        "    except OSError:\n"
        "        pass"
    )
    code, output = build(tmp_path, {"forger": script(body)})
    assert not sentinel.exists(), "the build ran the figure's pickle"
    assert code == 1, output
    assert "figure 'forger' failed: its answer could not be read" in output


@pytest.mark.skipif(sys.platform == "win32", reason="no memory limit without setrlimit")
def test_a_memory_bomb_fails_cheaply(tmp_path: Path) -> None:
    code, output = build(tmp_path, {"bomb": script("hoard = bytearray(4 << 30)")})
    assert code == 1, output
    assert "figure 'bomb' failed: MemoryError" in output


def test_many_figures_share_the_decks_budget(tmp_path: Path) -> None:
    """Each figure under its own limit, together they stop at figure-deck-time-limit."""
    slow = script("import time\ntime.sleep(1.0)")
    scripts = {f"slow{n}": slow for n in range(4)}
    code, output = build(tmp_path, scripts, "figure-deck-time-limit = 1.5\n")
    assert code == 1, output
    assert "the figures of this file used up their time together" in output
    assert "figure-deck-time-limit" in output
