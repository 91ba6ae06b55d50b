"""Hidden tests for the triton-vector-add drill.

Without CUDA (or with DRILL_DEVICE=cpu) the kernel runs in Triton's CPU interpreter: TRITON_INTERPRET
must be set before triton is imported, so it is set here at import time. With CUDA, kernels are
compiled and only the cuda cases run.
"""

from __future__ import annotations

import os

import pytest
import torch

INTERPRET = os.environ.get("DRILL_DEVICE") == "cpu" or not torch.cuda.is_available()
if INTERPRET:
    os.environ["TRITON_INTERPRET"] = "1"
triton = pytest.importorskip("triton", reason="Triton is not installed (pip install triton; Linux only)")

DTYPES = [torch.float32, torch.float16, torch.bfloat16]


@pytest.fixture
def tdevice(device: str) -> str:
    """The device fixture, minus the cpu case when kernels are compiled for CUDA."""
    if device == "cpu" and not INTERPRET:
        pytest.skip("compiled Triton kernels need CUDA tensors; DRILL_DEVICE=cpu runs them in the interpreter")
    return device


class LaunchCounter:
    """Stands in for the candidate's kernel and counts `kernel[grid](...)` launches."""

    def __init__(self, kernel):
        self.kernel, self.launches = kernel, 0

    def __getitem__(self, grid):
        launcher = self.kernel[grid]

        def launch(*args, **kwargs):
            self.launches += 1
            return launcher(*args, **kwargs)

        return launch

    def __getattr__(self, name):
        return getattr(self.kernel, name)


@pytest.fixture
def counter(candidate, monkeypatch):
    kernel = getattr(candidate, "add_kernel", None)
    assert isinstance(kernel, triton.runtime.KernelInterface), \
        "the module must define a @triton.jit kernel named add_kernel"
    c = LaunchCounter(kernel)
    monkeypatch.setattr(candidate, "add_kernel", c)
    return c


@pytest.mark.parametrize("shape", [(1,), (17,), (1024,), (1025,), (5000,), (3, 5, 7)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_add(candidate, counter, tdevice, seed, shape, dtype):
    if dtype == torch.bfloat16 and INTERPRET:
        pytest.skip("Triton's CPU interpreter computes bfloat16 arithmetic on raw bits (numpy has no bfloat16); "
                    "bfloat16 runs compiled on cuda only")
    x = torch.randn(shape, device=tdevice).to(dtype)
    y = torch.randn(shape, device=tdevice).to(dtype)
    x0, y0 = x.clone(), y.clone()
    out = candidate.add(x, y)
    assert counter.launches >= 1, "add() must launch add_kernel[grid](...); do not compute the sum with torch"
    assert torch.equal(x, x0) and torch.equal(y, y0), "add must not modify its inputs"
    assert out.shape == x.shape and out.dtype == dtype and out.device == x.device, (
        f"output must have x's shape/dtype/device {tuple(shape)}/{dtype}/{x.device}, "
        f"got {tuple(out.shape)}/{out.dtype}/{out.device}")
    assert out.is_contiguous(), "output must be contiguous"
    assert out.data_ptr() not in (x.data_ptr(), y.data_ptr()), "return a new tensor, do not write into x or y"
    torch.testing.assert_close(out, x + y, msg=lambda m: (
        f"wrong sum for shape {shape} (is the tail past the last full block masked?):\n" + m))


def test_mismatch_raises(candidate, tdevice):
    x = torch.randn(8, device=tdevice)
    with pytest.raises(ValueError):
        candidate.add(x, torch.randn(9, device=tdevice))
    with pytest.raises(ValueError):
        candidate.add(x, torch.randn(8, device=tdevice, dtype=torch.float16))


BENCH_N = {"cuda": 1 << 24, "cpu": 1 << 16}  # the CPU interpreter is slow


def bench_inputs(device):
    """The seeded x and y that benchmark_case and builtin_case both add."""
    torch.manual_seed(0)
    n = BENCH_N[device]
    return torch.randn(n, device=device), torch.randn(n, device=device)


def benchmark_case(module, device):
    x, y = bench_inputs(device)
    return lambda: module.add(x, y)


def builtin_case(device):
    """The same sum by torch's own elementwise add."""
    x, y = bench_inputs(device)
    return lambda: x + y


def bytes_moved(device):
    """Read x and y, write out: 3 float32 vectors of n elements (4 bytes each)."""
    return 3 * BENCH_N[device] * 4
