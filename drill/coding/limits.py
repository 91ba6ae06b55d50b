"""Resource limits for a test process, and the defaults the runner uses.

CPU runs cap the address space with RLIMIT_AS (what is mapped at start-up plus memory_mb), so
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


def kill_group(pgid: int) -> None:
    """SIGKILL a whole process group; a group that is already gone is fine."""
    import signal

    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
