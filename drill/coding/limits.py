"""Resource limits for a test process, and the defaults the runner uses.

Every run is also watched as a whole: the resident memory of all the processes it started, added
up, is capped (tree_rss), so three children of 3 GiB each cannot get round a per-process cap.
CPU runs cap each process's address space with RLIMIT_AS (what is mapped at start-up plus memory_mb), so
a huge allocation fails inside the user's code as a clean MemoryError / "can't allocate memory". CUDA runs cannot: the CUDA driver
reserves tens of GiB of *virtual* address space at start-up, so RLIMIT_AS would break every
run. There the supervising process watches the child's resident memory (RSS) instead and kills
its process group past the limit, and the child caps torch's GPU allocator with
set_per_process_memory_fraction, so a huge GPU allocation is a clean "CUDA out of memory".
"""

from __future__ import annotations

import os

DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MEMORY_MB = 4096
DEFAULT_GPU_MEMORY_MB = 16384
CUDA_RSS_ALLOWANCE_MB = 2048  # resident memory of python + torch + a CUDA context, on top of memory_mb
CPU_RSS_ALLOWANCE_MB = 1024  # python + torch (each forked process counts its shared pages again)
MiB = 2**20


def apply_memory_limit(memory_mb: int, device: str) -> None:
    """In the test process: cap the address space on cpu runs (cuda runs: see the module doc).

    The cap is what the process already maps (the interpreter, torch and its libraries: over
    3 GiB for a CUDA build of torch) plus `memory_mb`. It only ever tightens, so applying it
    twice (worker child, then plugin) keeps the first, stricter cap.
    """
    if device == "cuda" or memory_mb <= 0:
        return
    try:
        import resource
    except ImportError:  # not POSIX: no limit
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = (vm_size_bytes() or 0) + memory_mb * MiB
    for bound in (soft, hard):
        if bound != resource.RLIM_INFINITY:
            limit = min(limit, bound)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def vm_size_bytes(pid: int | str = "self") -> int | None:
    """Virtual size of a process (Linux /proc), None when unknown."""
    return _status_kib(pid, "VmSize:")


def cap_gpu_memory(gpu_memory_mb: int) -> None:
    """In a cuda test process: let torch's caching allocator use at most `gpu_memory_mb`."""
    import torch

    if gpu_memory_mb <= 0 or not torch.cuda.is_available():
        return
    total = torch.cuda.get_device_properties(0).total_memory
    torch.cuda.set_per_process_memory_fraction(min(1.0, gpu_memory_mb * MiB / total))


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
    try:
        os.kill(pid, number)
    except (ProcessLookupError, PermissionError):
        pass


def kill_group(pgid: int) -> None:
    """SIGKILL a whole process group; a group that is already gone is fine."""
    import signal

    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
