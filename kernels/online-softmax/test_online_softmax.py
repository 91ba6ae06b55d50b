"""Hidden tests for the online-softmax drill."""

from __future__ import annotations

import math

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

REDUCTIONS = {
    "amax", "amin", "max", "min", "sum", "nansum", "mean", "prod", "logsumexp", "aminmax",
    "_softmax", "_log_softmax", "softmax", "log_softmax", "norm", "linalg_vector_norm",
    "var", "std", "var_mean", "std_mean", "cummax", "cummin", "sort", "topk", "kthvalue", "argmax", "argmin",
}  # fmt: skip


class ReductionWidth(TorchDispatchMode):
    """Records, for every reduction op, how many elements it combines per output element."""

    def __init__(self):
        super().__init__()
        self.widest = (0, "")

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = func.overloadpacket.__name__
        if name in REDUCTIONS and args and isinstance(args[0], torch.Tensor):
            width = self._width(name, args, kwargs)
            if width > self.widest[0]:
                self.widest = (width, f"{func} on shape {tuple(args[0].shape)}")
        return func(*args, **kwargs)

    @staticmethod
    def _width(name, args, kwargs) -> int:
        x = args[0]
        if x.dim() == 0:
            return 1
        dim = args[1] if len(args) > 1 else kwargs.get("dim")
        if isinstance(dim, torch.Tensor):  # binary max/min: elementwise
            return 0
        if name in ("sort", "cummax", "cummin", "_softmax", "_log_softmax", "softmax", "log_softmax") and dim is None:
            dim = -1
        if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
            return x.numel()
        dims = [dim] if isinstance(dim, int) else list(dim)
        return math.prod(x.shape[d] for d in dims)


def run(candidate, x, block_size):
    original = x.clone()
    mode = ReductionWidth()
    with mode:
        out = candidate.online_softmax(x, block_size)
    assert torch.equal(x, original), "online_softmax modified its input in place"
    assert out.shape == x.shape, f"output shape {tuple(out.shape)} != input shape {tuple(x.shape)}"
    assert out.dtype == x.dtype, f"output dtype {out.dtype} != input dtype {x.dtype}"
    assert out.device == x.device, "output must be on x's device"
    width, where = mode.widest
    assert width <= block_size, (
        f"a reduction combined {width} elements ({where}) but block_size is {block_size}: "
        "reduce one block at a time and carry a running max / sum"
    )
    return out


def reference(x):
    return torch.softmax(x.float(), dim=-1).to(x.dtype)


@pytest.mark.parametrize("shape,block_size", [((4, 256), 64), ((2, 3, 1000), 64), ((5, 37), 8), ((3, 50), 128), ((6, 17), 1)])
def test_matches_softmax(candidate, device, seed, shape, block_size):
    x = torch.randn(shape, device=device) * 3
    out = run(candidate, x, block_size)
    torch.testing.assert_close(out, reference(x), msg=lambda m: f"differs from torch.softmax for {shape}, block {block_size}\n" + m)
    torch.testing.assert_close(out.sum(-1), torch.ones(shape[:-1], device=device), msg=lambda m: "rows must sum to 1\n" + m)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_low_precision(candidate, device, seed, dtype):
    x = (torch.randn(8, 300, device=device) * 4).to(dtype)
    out = run(candidate, x, 32)
    torch.testing.assert_close(out, reference(x), msg=lambda m: f"{dtype}: accumulate in float32, return x.dtype\n" + m)


def test_large_offsets(candidate, device, seed):
    x = torch.randn(6, 400, device=device) * 5 + torch.tensor([1e4, -1e4, 3e3, 0.0, 5e3, -7e3], device=device)[:, None]
    out = run(candidate, x, 64)
    assert torch.isfinite(out).all(), "inf/NaN for rows offset by 1e4: subtract the running max before exp"
    torch.testing.assert_close(out, reference(x), msg=lambda m: "rows offset by 1e4\n" + m)


def test_max_jumps_between_blocks(candidate, device, seed):
    x = torch.randn(4, 320, device=device)
    x[:, 160:] += 80.0  # later blocks dominate: the early sum must be rescaled by exp(-80)
    x[2, :] = torch.randn(320, device=device) - torch.arange(320, device=device) * 0.5  # max in the first block
    out = run(candidate, x, 32)
    assert torch.isfinite(out).all(), "inf/NaN when the max grows between blocks"
    torch.testing.assert_close(out, reference(x), msg=lambda m: "max grows between blocks: rescale the running sum\n" + m)


def test_masked_blocks(candidate, device, seed):
    x = torch.randn(5, 200, device=device)
    x[0, :64] = float("-inf")  # first two blocks fully masked
    x[1, 100:] = float("-inf")  # causal-style tail
    x[2, ::3] = float("-inf")
    x[3, :199] = float("-inf")  # single live entry, last position
    out = run(candidate, x, 32)
    assert not torch.isnan(out).any(), "NaN with -inf inputs: an all -inf block gives exp(-inf - (-inf)) = NaN"
    assert (out[torch.isinf(x)] == 0).all(), "masked (-inf) entries must get probability exactly 0"
    torch.testing.assert_close(out, reference(x), msg=lambda m: "rows containing -inf\n" + m)


BENCH_SHAPE = {"cuda": (4096, 4096), "cpu": (256, 4096)}


def bench_inputs(device):
    """The seeded logits that benchmark_case and builtin_case both normalise."""
    torch.manual_seed(0)
    return torch.randn(BENCH_SHAPE[device], device=device)


def benchmark_case(module, device):
    x = bench_inputs(device)
    return lambda: module.online_softmax(x, 256)


def builtin_case(device):
    """The same softmax over the last dim by torch's fused kernel."""
    x = bench_inputs(device)
    return lambda: torch.softmax(x, dim=-1)


def bytes_moved(device):
    """Read every float32 logit once and write every probability once: 2 * rows * cols * 4 bytes."""
    rows, cols = BENCH_SHAPE[device]
    return 2 * rows * cols * 4
