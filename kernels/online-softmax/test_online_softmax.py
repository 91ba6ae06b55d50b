"""Hidden tests for the online-softmax drill."""

from __future__ import annotations

import math

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves

REDUCTIONS = {
    "amax", "amin", "max", "min", "sum", "nansum", "mean", "prod", "logsumexp", "aminmax",
    "_softmax", "_log_softmax", "softmax", "log_softmax", "norm", "linalg_vector_norm",
    "var", "std", "var_mean", "std_mean", "cummax", "cummin", "sort", "topk", "kthvalue", "argmax", "argmin",
    "cumsum", "cumprod", "logcumsumexp", "median", "nanmedian", "mode", "all", "any", "count_nonzero",
}  # fmt: skip
TOLIST = torch.Tensor.tolist  # the test's own; a candidate's calls are patched out during the call
MATMULS = {"mm": 0, "bmm": 0, "mv": 0, "matmul": 0, "addmm": 1, "addmv": 1, "baddbmm": 1, "addbmm": 1}
# Ops that only move, copy, index or create data: allowed on whole rows, like elementwise ops.
MOVES = {
    "_to_copy", "copy", "clone", "contiguous", "cat", "stack", "full", "full_like", "zeros", "zeros_like",
    "ones", "ones_like", "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "new_zeros",
    "new_ones", "new_full", "fill", "zero", "arange", "scalar_tensor", "lift_fresh", "lift_fresh_copy",
    "constant_pad_nd", "index", "index_put", "index_select", "gather", "masked_fill", "where", "slice_scatter",
    "select_scatter", "flip", "roll", "repeat", "resize", "set", "nonzero", "masked_select", "clamp",
    "_unsafe_index", "expand_copy", "view_copy", "split_with_sizes_copy",
}  # fmt: skip


def is_pointwise(func) -> bool:
    """Elementwise op (in-place variants included)."""
    if torch.Tag.pointwise in func.tags:
        return True
    name = func.overloadpacket.__name__
    if name.endswith("_") and hasattr(torch.ops.aten, name[:-1]):
        packet = getattr(torch.ops.aten, name[:-1])
        return any(torch.Tag.pointwise in getattr(packet, o).tags for o in packet.overloads())
    return False


class StreamWatcher(TorchDispatchMode):
    """Checks the structure of one online_softmax(x, block_size) call, op by op.

    - every op is elementwise, a copy/indexing/creation op, or a reduction (max, sum, logsumexp,
      cumsum, matmul, ...) that combines at most block_size elements of a row;
    - no reduction reads several blocks of x at once (e.g. x.view(..., n_blocks, block_size).amax(-1));
    - single pass: the blocks of x (or of any whole-row copy / elementwise transform of x) are read
      in order; once a later pass goes back to an earlier block, no reduction may run any more
      (the second pass only writes the output).
    """

    def __init__(self, x: torch.Tensor, block_size: int):
        super().__init__()
        self.n, self.bs = x.shape[-1], block_size
        self.lead = tuple(x.shape[:-1])
        self.rows: dict[int, tuple[torch.Tensor, int]] = {}  # storage ptr -> (tensor kept alive, row length)
        self._track(x, self.n)
        self.widest = (0, "")
        self.problems: list[str] = []
        self.max_block = -1
        self.went_back = ""  # the first read of an earlier block after a later one
        self.ops = 0

    def _track(self, t, row_len):
        if t.numel() and t.is_contiguous():
            self.rows.setdefault(t.untyped_storage().data_ptr(), (t, row_len))

    def _blocks(self, t):
        """Blocks of the tracked row tensor that t reads (None if t is not a view of one)."""
        if not isinstance(t, torch.Tensor) or t.numel() == 0 or t.layout != torch.strided:
            return None
        hit = self.rows.get(t.untyped_storage().data_ptr())
        if hit is None:
            return None
        base, row_len = hit
        size = t.untyped_storage().nbytes() // t.element_size()
        flat = torch.arange(size, device="cpu")
        idx = flat.as_strided(t.shape, t.stride(), t.storage_offset()).reshape(-1)
        cols = (idx - base.storage_offset()) % row_len
        return sorted(set(TOLIST(cols // self.bs)))

    def _problem(self, msg):
        if len(self.problems) < 3:
            self.problems.append(msg)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        self.ops += 1
        name = func.overloadpacket.__name__
        base_name = name[:-1] if name.endswith("_") else name
        out = func(*args, **kwargs)
        if func.is_view:
            return out
        leaves = [t for t in tree_leaves((args, kwargs)) if isinstance(t, torch.Tensor)]
        reads = [b for b in (self._blocks(t) for t in leaves) if b is not None]
        reduction = name in REDUCTIONS or name in MATMULS
        if reduction:
            width = self._width(name, args, kwargs)
            if width > self.widest[0]:
                self.widest = (width, f"{func} on shapes {[tuple(t.shape) for t in leaves]}")
            if any(len(b) > 1 for b in reads):
                self._problem(f"{func} reduced several blocks of x in one op: stream over the blocks one at a time")
            if self.went_back:
                self._problem(
                    f"{func} ran in a second pass over x ({self.went_back}): compute the max and the sum in ONE "
                    "pass, rescaling the running sum when the max grows (the second pass only writes the output)")
        elif not (is_pointwise(func) or base_name in MOVES):
            self._problem(
                f"{func} is not allowed: use elementwise ops, copies/indexing, and reductions (max, sum, ...) "
                "of at most block_size elements")
        for b in reads:
            if len(b) == 1:
                if b[0] < self.max_block and not self.went_back:
                    self.went_back = f"{func} read block {b[0]} after block {self.max_block}"
                self.max_block = max(self.max_block, b[0])
        # a whole-row copy or elementwise transform of x (cast, pad, exp(x - m), ...) is tracked like x
        if reads and any(len(b) > 1 for b in reads) and (is_pointwise(func) or base_name in MOVES):
            for t in tree_leaves(out):
                if (isinstance(t, torch.Tensor) and t.dim() == len(self.lead) + 1
                        and tuple(t.shape[:-1]) == self.lead and t.shape[-1] >= self.n):
                    self._track(t, t.shape[-1])
        return out

    @staticmethod
    def _width(name, args, kwargs) -> int:
        if name in MATMULS:
            a = args[MATMULS[name]]
            return a.shape[-1] if a.dim() else 1
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


def no_numpy(*args, **kwargs):
    raise AssertionError("online_softmax must compute with torch ops: numpy / tolist / Python floats hide the work")


def run(candidate, x, block_size):
    original = x.clone()
    mode = StreamWatcher(x, block_size)
    with pytest.MonkeyPatch.context() as mp:
        for attr in ("numpy", "__array__", "tolist"):
            mp.setattr(torch.Tensor, attr, no_numpy)
        with mode:
            out = candidate.online_softmax(x, block_size)
    assert torch.equal(x, original), "online_softmax modified its input in place"
    assert isinstance(out, torch.Tensor), "online_softmax must return a tensor"
    assert out.shape == x.shape, f"output shape {tuple(out.shape)} != input shape {tuple(x.shape)}"
    assert out.dtype == x.dtype, f"output dtype {out.dtype} != input dtype {x.dtype}"
    assert out.device == x.device, "output must be on x's device"
    width, where = mode.widest
    assert width <= block_size, (
        f"a reduction combined {width} elements ({where}) but block_size is {block_size}: "
        "reduce one block at a time and carry a running max / sum"
    )
    assert not mode.problems, "\n".join(mode.problems)
    return out


def reference(x):
    return torch.softmax(x.float(), dim=-1).to(x.dtype)


@pytest.mark.parametrize("shape,block_size", [((4, 256), 64), ((2, 3, 1000), 64), ((5, 37), 8), ((3, 50), 128), ((6, 17), 1)])
def test_matches_softmax(candidate, device, seed, shape, block_size):
    x = torch.randn(shape, device=device) * 3
    out = run(candidate, x, block_size)
    torch.testing.assert_close(out, reference(x), msg=lambda m: f"differs from torch.softmax for {shape}, block {block_size}\n" + m)
    torch.testing.assert_close(out.sum(-1), torch.ones(shape[:-1], device=device), msg=lambda m: "rows must sum to 1\n" + m)


def test_random_shapes_and_blocks(candidate, device, seed):
    """Seeded draws: 1-D to 3-D inputs, N from 1, block_size from 1 to beyond N, tails, many blocks."""
    gen = torch.Generator().manual_seed(1000 + seed)
    cases = [((1,), 1), ((7,), 3), ((3, 1), 4), ((2, 300), 4), ((4, 64), 64), ((2, 65), 64), ((3, 10), 100)]
    for _ in range(5):
        lead = [int(torch.randint(1, 4, (), generator=gen)) for _ in range(int(torch.randint(0, 3, (), generator=gen)))]
        n = int(torch.randint(1, 200, (), generator=gen))
        cases.append(((*lead, n), int(torch.randint(1, n + 8, (), generator=gen))))
    for shape, block_size in cases:
        x = (torch.randn(shape, generator=gen) * 4).to(device)
        out = run(candidate, x, block_size)
        torch.testing.assert_close(out, reference(x), msg=lambda m: f"shape {shape}, block_size {block_size}\n" + m)


def test_non_contiguous_input(candidate, device, seed):
    base = torch.randn(50, 6, device=device) * 3
    x = base.t()[1:5]  # (4, 50) with strides (1, 6)
    out = run(candidate, x, 16)
    torch.testing.assert_close(out, reference(x), msg=lambda m: "x may be non-contiguous (a transposed view)\n" + m)


def test_vectorised_across_rows(candidate, device):
    counts = []
    for rows in (2, 40):
        x = torch.randn(rows, 100, device=device)
        mode = StreamWatcher(x, 16)
        with mode:
            out = candidate.online_softmax(x, 16)
        torch.testing.assert_close(out, reference(x))
        counts.append(mode.ops)
    assert counts[1] <= counts[0] + 4, (
        f"2 rows ran {counts[0]} tensor ops but 40 rows ran {counts[1]}: vectorise across rows (loop over blocks only)"
    )


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
    x[4, 40:190] = float("-inf")  # whole blocks masked in the middle, live tail
    out = run(candidate, x, 32)
    assert not torch.isnan(out).any(), "NaN with -inf inputs: an all -inf block gives exp(-inf - (-inf)) = NaN"
    assert (out[torch.isinf(x)] == 0).all(), "masked (-inf) entries must get probability exactly 0"
    torch.testing.assert_close(out, reference(x), msg=lambda m: "rows containing -inf\n" + m)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_random_masks(candidate, device, seed, dtype):
    """Random runs of -inf (whole blocks, tails, prefixes) with at least one live entry per row."""
    gen = torch.Generator().manual_seed(2000 + seed)
    x = torch.randn(12, 150, generator=gen) * 3
    for r in range(12):
        a = int(torch.randint(0, 150, (), generator=gen))
        b = int(torch.randint(a, 151, (), generator=gen))
        x[r, a:b] = float("-inf")
        x[r, int(torch.randint(0, 150, (), generator=gen))] = float(torch.randn((), generator=gen))
    x = x.to(device=device, dtype=dtype)
    out = run(candidate, x, 16)
    assert not torch.isnan(out).any(), "NaN with -inf inputs"
    assert (out[torch.isinf(x)] == 0).all(), "masked (-inf) entries must get probability exactly 0"
    torch.testing.assert_close(out, reference(x), msg=lambda m: "rows with random -inf runs\n" + m)


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
