"""Confining a child process that runs the author's code (a figure script).

What a confined child gets, where the operating system allows it:

- its inherited files (every Unix): each file descriptor of the build it
  inherits points at ``/dev/null``, but files open for reading alone;
- limits (every Unix): address space (``RLIMIT_AS``), CPU seconds
  (``RLIMIT_CPU``), the size of a file it writes (``RLIMIT_FSIZE``), no core
  dump; a working folder of its own (a fresh temporary folder, also its
  ``TMPDIR``);
- namespaces (Linux, as root or where unprivileged user namespaces are
  allowed): a network namespace of its own, which has no interface but a
  loopback that is down (nothing to connect to), and a process-id namespace
  whose first process runs the script, so that when it ends the kernel kills
  every process it started, even one that left its process group or session;
- Landlock (Linux 5.13 and later, when the kernel enables it): reading only
  the project, Python's own folders and the system's libraries and fonts;
  writing only in its working folder; no TCP (ABI 4) and no signal or
  abstract socket outside its own processes (ABI 6).

Each layer that the system refuses is skipped, and :func:`support` says which
ones this system gives (``docs/format.md`` tells the same per platform).
Landlock is called through its system calls (``ankigen.sandbox.landlock``).
"""

from __future__ import annotations

import contextlib
import math
import os
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from ankigen.sandbox import landlock

__all__ = [
    "Confinement",
    "Layers",
    "apply_limits",
    "disarm_inherited_files",
    "enter_namespaces",
    "no_core_dump",
    "restrict_files",
    "support",
]

#: System folders (and files) a Python process with matplotlib reads besides Python's own.
_SYSTEM_READS = (
    "/usr/lib",
    "/usr/lib64",
    "/usr/local/lib",
    "/lib",
    "/lib64",
    "/usr/share/fonts",
    "/usr/share/zoneinfo",
    "/usr/share/matplotlib",
    "/etc/ld.so.cache",
    "/etc/localtime",
    "/etc/fonts",
    "/dev/null",
    "/dev/urandom",
)


@dataclass(frozen=True)
class Confinement:
    """What a confined child may use.

    ``memory`` is the address space in bytes it may add to what it holds when
    it confines itself (a fresh interpreter, before the task's imports),
    ``cpu_seconds`` its CPU time, ``readable`` the folders it may read besides
    Python's own folders, ankigen and the system's libraries (the project,
    matplotlib's data), ``workdir`` its working folder, the only place it may
    write.
    """

    memory: int
    cpu_seconds: float
    readable: tuple[Path, ...]
    workdir: Path

    def to_json(self) -> dict[str, object]:
        """This confinement as JSON-ready data, for the child's request."""
        return {
            "memory": self.memory,
            "cpu_seconds": self.cpu_seconds,
            "readable": [str(p) for p in self.readable],
            "workdir": str(self.workdir),
        }

    @classmethod
    def from_json(cls, data: object) -> Confinement:
        """The confinement :meth:`to_json` gave; ValueError if ``data`` is malformed."""
        if not isinstance(data, dict) or not isinstance(data.get("readable"), list):
            raise ValueError("a confinement must be an object with readable folders")
        return cls(
            int(data["memory"]),
            float(data["cpu_seconds"]),
            tuple(Path(str(p)) for p in data["readable"]),
            Path(str(data["workdir"])),
        )


@dataclass(frozen=True)
class Layers:
    """Which layers of confinement this system gave."""

    network: bool = False
    processes: bool = False
    files: bool = False


def enter_namespaces() -> Layers:
    """Move this process into new network and process-id namespaces (Linux).

    The network namespace holds from now on; the process-id one holds for the
    next process this one starts, which becomes its first process. Call it in
    a single-threaded child; as root, or with unprivileged user namespaces.
    """
    libc = landlock.libc()
    if libc is None:
        return Layers()
    flags = _CLONE_NEWNET | _CLONE_NEWPID
    if os.geteuid() != 0:
        flags |= _CLONE_NEWUSER
    if libc.unshare(flags) == 0:
        if flags & _CLONE_NEWUSER:
            _map_user()
        return Layers(network=True, processes=True)
    return Layers()


def _map_user() -> None:
    """Keep this process's user and group ids inside its new user namespace."""
    uid, gid = os.getuid(), os.getgid()
    with contextlib.suppress(OSError):
        Path("/proc/self/setgroups").write_text("deny")
        Path("/proc/self/uid_map").write_text(f"{uid} {uid} 1")
        Path("/proc/self/gid_map").write_text(f"{gid} {gid} 1")


def apply_limits(confinement: Confinement) -> None:
    """Memory, CPU and file-size limits, no core dump, and the working folder."""
    os.chdir(confinement.workdir)
    for name in ("TMPDIR", "TEMP", "TMP"):
        os.environ[name] = str(confinement.workdir)
    tempfile.tempdir = str(confinement.workdir)  # the parent may have chosen one already
    try:
        import resource
    except ImportError:  # Windows: no limits to set
        return
    cpu = math.ceil(confinement.cpu_seconds) + 1
    _set_limit(resource, resource.RLIMIT_CPU, cpu, cpu + 1)
    no_core_dump()
    _set_limit(resource, resource.RLIMIT_FSIZE, confinement.memory, confinement.memory)
    if hasattr(resource, "RLIMIT_AS"):
        space = _address_space() + confinement.memory
        _set_limit(resource, resource.RLIMIT_AS, space, space)


def no_core_dump() -> None:
    """No core file when this process dies of a signal (Unix)."""
    try:
        import resource
    except ImportError:  # Windows: no core files
        return
    _set_limit(resource, resource.RLIMIT_CORE, 0, 0)


def disarm_inherited_files(keep: frozenset[int]) -> None:
    """Point every file descriptor the child inherited at ``/dev/null``, but ``keep``.

    The child is started with only its standard streams (``close_fds``), but a
    descriptor that is open anyway (one the interpreter or a wrapper left)
    must not lead back to the build. Only files open for reading alone stay
    as they are; Landlock cannot take back a file that is already open.
    """
    import fcntl  # Unix only: Windows has no confinement

    null = os.open(os.devnull, os.O_RDWR)
    try:
        for fd in _open_descriptors():
            if fd in keep or fd == null or fd < 3:
                continue
            try:
                mode = os.fstat(fd).st_mode
                flags = fcntl.fcntl(fd, fcntl.F_GETFL)
            except OSError:  # closed meanwhile
                continue
            if stat.S_ISREG(mode) and (flags & os.O_ACCMODE) == os.O_RDONLY:
                continue
            os.dup2(null, fd)
    finally:
        os.close(null)


def _open_descriptors() -> list[int]:
    """The file descriptors open in this process."""
    try:
        return [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:  # no /proc: try every number up to the limit
        return list(range(3, min(os.sysconf("SC_OPEN_MAX"), 65536)))


def _set_limit(resource: ModuleType, which: int, soft: int, hard: int) -> None:
    """Lower a limit, never raising it above the hard limit already in force."""
    _, current_hard = resource.getrlimit(which)
    if current_hard != resource.RLIM_INFINITY:
        hard = min(hard, current_hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(which, (min(soft, hard), hard))


def _address_space() -> int:
    """Bytes of address space this process uses now (0 where it cannot be read)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


_CLONE_NEWNET, _CLONE_NEWPID, _CLONE_NEWUSER = 0x40000000, 0x20000000, 0x10000000


def restrict_files(confinement: Confinement) -> bool:
    """Landlock: read only what Python and the project need, write only the working folder.

    Also refuses TCP and, on newer kernels, signals and abstract sockets
    outside the child's own processes. False when Landlock is not available.
    """
    return landlock.restrict(_readable(confinement), confinement.workdir)


def _readable(confinement: Confinement) -> list[Path]:
    """The confinement's folders, Python's (``sys.path``), ankigen's and the system's libraries."""
    paths = [Path(p) for p in _SYSTEM_READS]
    import ankigen

    package = Path(ankigen.__file__).resolve().parent
    entries: list[str | Path] = [
        *confinement.readable,
        *sys.path,
        sys.prefix,
        sys.exec_prefix,
        package,
    ]
    for entry in entries:
        path = Path(entry)
        # A relative entry is the current folder; the root would be everything.
        if path.is_absolute() and path != Path(path.anchor):
            paths.append(path)
    return paths


def support() -> Layers:
    """The layers this system gives a confined child (each tried in a throwaway child)."""
    if landlock.libc() is None:
        return Layers()
    from ankigen.sandbox.runner import child_command

    try:
        answer = subprocess.run(
            child_command("layers"),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=60,
            check=False,
            start_new_session=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return Layers()
    if len(answer) != 3:
        return Layers()
    return Layers(network=bool(answer[0]), processes=bool(answer[1]), files=bool(answer[2]))
