"""The memory caps the test process sets on itself.

CPU runs cap each process's address space with RLIMIT_AS (what is mapped at start-up plus
memory_mb), so a huge allocation fails inside the user's code as a clean MemoryError / "can't
allocate memory". CUDA runs cannot: the CUDA driver reserves tens of GiB of *virtual* address
space at start-up, so RLIMIT_AS would break every run. There the supervisor watches the resident
memory of the run's process tree instead (drill.coding.processes), and the child caps torch's GPU
allocator with set_per_process_memory_fraction, so a huge GPU allocation is a clean "CUDA out of
memory".
"""

from __future__ import annotations

from drill.coding.processes import MiB, vm_size_bytes


def apply_memory_limit(memory_mb: int, device: str) -> None:
    """Cap the address space on cpu runs (cuda runs: see the module doc).

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


def cap_gpu_memory(gpu_memory_mb: int) -> None:
    """In a cuda test process: let torch's caching allocator use at most `gpu_memory_mb`."""
    import torch

    if gpu_memory_mb <= 0 or not torch.cuda.is_available():
        return
    total = torch.cuda.get_device_properties(0).total_memory
    torch.cuda.set_per_process_memory_fraction(min(1.0, gpu_memory_mb * MiB / total))
