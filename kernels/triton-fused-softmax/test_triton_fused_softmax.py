"""Hidden tests for the triton-fused-softmax drill.

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
SHAPES = [(1, 1), (4, 7), (16, 128), (33, 781), (8, 1000)]


@pytest.fixture
def tdevice(device: str) -> str:
    """The device fixture, minus the cpu case when kernels are compiled for CUDA."""
    if device == "cpu" and not INTERPRET:
        pytest.skip("compiled Triton kernels need CUDA tensors; DRILL_DEVICE=cpu runs them in the interpreter")
    return device


def skip_bf16_in_interpreter(dtype):
    if dtype == torch.bfloat16 and INTERPRET:
        pytest.skip("Triton's CPU interpreter has no real bfloat16 (numpy has none); bfloat16 runs on cuda only")


class LaunchCounter:
    """Stands in for the candidate's kernel; records the grid of every `kernel[grid](...)` launch."""

    def __init__(self, kernel):
        self.kernel, self.grids = kernel, []

    def __getitem__(self, grid):
        launcher = self.kernel[grid]

        def launch(*args, **kwargs):
            g = grid
            if callable(g):
                try:
                    g = g(dict(kwargs))
                except Exception:  # a grid lambda reading positional meta-args: cannot resolve here
                    g = None
            if g is not None:
                g = tuple(int(v) for v in g)
                while len(g) > 1 and g[-1] == 1:
                    g = g[:-1]
            self.grids.append(g)
            return launcher(*args, **kwargs)

        return launch

    def __getattr__(self, name):
        return getattr(self.kernel, name)


@pytest.fixture
def counter(candidate, monkeypatch):
    kernel = getattr(candidate, "softmax_kernel", None)
    assert isinstance(kernel, triton.runtime.KernelInterface), \
        "the module must define a @triton.jit kernel named softmax_kernel"
    c = LaunchCounter(kernel)
    monkeypatch.setattr(candidate, "softmax_kernel", c)
    return c


def run(candidate, counter, x):
    x0 = x.clone()
    out = candidate.softmax(x)
    assert torch.equal(x, x0), "softmax must not modify its input"
    n_rows, n_cols = x.shape
    assert len(counter.grids) == 1, f"launch softmax_kernel exactly once per call, got {len(counter.grids)} launches"
    assert counter.grids[0] in (None, (n_rows,)), \
        f"one program per row: the grid must be ({n_rows},), got {counter.grids[0]}"
    counter.grids.clear()
    assert out.shape == x.shape and out.dtype == x.dtype and out.device == x.device, (
        f"output must have x's shape/dtype/device {tuple(x.shape)}/{x.dtype}/{x.device}, "
        f"got {tuple(out.shape)}/{out.dtype}/{out.device}")
    assert out.is_contiguous(), "output must be a new contiguous tensor"
    return out


def want(x):
    return torch.softmax(x.float(), dim=-1).to(x.dtype)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_softmax(candidate, counter, tdevice, seed, shape, dtype):
    skip_bf16_in_interpreter(dtype)
    x = (torch.randn(shape, device=tdevice) * 3).to(dtype)
    out = run(candidate, counter, x)
    torch.testing.assert_close(out, want(x), msg=lambda m: (
        f"softmax of a {shape} {dtype} input is wrong (mask lanes >= n_cols with other=-inf?):\n" + m))


@pytest.mark.parametrize("n_cols", [7, 781])
def test_padded_rows(candidate, counter, tdevice, seed, n_cols):
    big = torch.randn(9, n_cols + 13, device=tdevice)
    x = big[:, :n_cols]  # row stride n_cols + 13
    out = run(candidate, counter, x)
    torch.testing.assert_close(out, want(x), msg=lambda m: (
        f"rows are {n_cols + 13} elements apart in memory: index the input with x.stride(0), "
        "the output with its own stride:\n" + m))


@pytest.mark.parametrize("dtype", DTYPES)
def test_huge_logits_stay_finite(candidate, counter, tdevice, seed, dtype):
    skip_bf16_in_interpreter(dtype)
    x = (torch.randn(6, 300, device=tdevice) * 1e4).to(dtype)
    out = run(candidate, counter, x)
    assert torch.isfinite(out).all(), "inf/NaN for logits of scale 1e4: subtract the row max before exp"
    torch.testing.assert_close(out, want(x), msg=lambda m: "wrong softmax for large logits:\n" + m)


def test_minus_inf_entries(candidate, counter, tdevice, seed):
    x = torch.randn(5, 50, device=tdevice)
    x[:, 1::3] = float("-inf")
    out = run(candidate, counter, x)
    assert (out[:, 1::3] == 0).all(), "-inf logits must get probability exactly 0"
    torch.testing.assert_close(out, want(x), msg=lambda m: "wrong softmax with -inf entries:\n" + m)


def test_invalid_inputs(candidate, tdevice):
    with pytest.raises(ValueError):
        candidate.softmax(torch.randn(8, device=tdevice))
    with pytest.raises(ValueError):
        candidate.softmax(torch.randn(8, 4, device=tdevice).T)


BENCH_SHAPE = {"cuda": (4096, 1024), "cpu": (64, 1024)}  # the CPU interpreter is slow


def bench_inputs(device):
    """The seeded logits that benchmark_case and builtin_case both normalise."""
    torch.manual_seed(0)
    return torch.randn(BENCH_SHAPE[device], device=device)


def benchmark_case(module, device):
    x = bench_inputs(device)
    return lambda: module.softmax(x)


def builtin_case(device):
    """The same row-wise softmax by torch's fused kernel."""
    x = bench_inputs(device)
    return lambda: torch.softmax(x, dim=-1)


def bytes_moved(device):
    """Read every float32 logit once and write every probability once: 2 * rows * cols * 4 bytes."""
    rows, cols = BENCH_SHAPE[device]
    return 2 * rows * cols * 4
