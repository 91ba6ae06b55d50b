"""The processes of a run: how a Python that imports this drill package is started, and how the
tree of processes a run leaves is found, measured and killed.

Shared by both sides: the runner's supervisor and the warm worker watch and kill a run's tree,
and the sandbox's keeper sweeps what is left of it. Every run is watched as a whole: the resident
memory of all the processes it started, added up, is capped (tree_rss), so three children of
3 GiB each cannot get round a per-process cap. Linux /proc; elsewhere the process group is
still killed.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

MiB = 2**20
PACKAGE_PARENT = Path(__file__).resolve().parents[2]  # the folder holding the `drill` package


def python_path() -> str:
    """PYTHONPATH for a child Python that must import this drill package (checkout or not)."""
    path = os.environ.get("PYTHONPATH")
    return str(PACKAGE_PARENT) + (os.pathsep + path if path else "")


def vm_size_bytes(pid: int | str = "self") -> int | None:
    """Virtual size of a process (Linux /proc), None when unknown."""
    return _status_kib(pid, "VmSize:")


def rss_bytes(pid: int) -> int | None:
    """Resident memory of a process (Linux /proc), None when unknown or gone."""
    return _status_kib(pid, "VmRSS:")


def _status_kib(pid: int | str, key: str) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith(key):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        return None
    return None


def _parents() -> dict[int, int]:
    """pid -> parent pid of every process (Linux /proc)."""
    parents: dict[int, int] = {}
    try:
        entries = list(os.scandir("/proc"))
    except OSError:  # no /proc (macOS): no tree to walk; the process group is still killed
        return parents
    for entry in entries:
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as stat:
                    parents[int(entry.name)] = int(stat.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    return parents


def descendants(root: int) -> list[int]:
    """Every process below `root` (children, their children, ...), whatever session or group."""
    children: dict[int, list[int]] = {}
    for pid, parent in _parents().items():
        children.setdefault(parent, []).append(pid)
    found, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def tree_rss(root: int) -> int:
    """Resident memory of `root` and every process below it, in bytes."""
    return sum(rss_bytes(pid) or 0 for pid in [root, *descendants(root)])


def kill_tree(root: int) -> None:
    """SIGKILL `root`, its process group and every process below it. The tree is stopped first
    (twice, to catch what forked meanwhile), so nothing escapes by forking during the kill."""
    import signal

    tree: set[int] = set()
    for _round in range(2):
        for pid in {root, *descendants(root)} - tree:
            tree.add(pid)
            _signal(pid, signal.SIGSTOP)
    for pid in tree:
        _signal(pid, signal.SIGKILL)
    kill_group(root)


def _signal(pid: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, number)


def kill_group(pgid: int) -> None:
    """SIGKILL a whole process group; a group that is already gone is fine."""
    import signal

    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
