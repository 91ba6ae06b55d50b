"""Hidden tests for the tiled-attention drill."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves

TOL = {torch.float32: dict(atol=2e-5, rtol=2e-4), torch.float16: dict(atol=1e-2, rtol=2e-2),
       torch.bfloat16: dict(atol=1e-2, rtol=2e-2)}  # fmt: skip


REDUCTIONS = {
    "amax", "amin", "max", "min", "sum", "nansum", "mean", "prod", "logsumexp", "aminmax", "_softmax",
    "_log_softmax", "softmax", "log_softmax", "norm", "linalg_vector_norm", "cumsum", "cumprod",
    "logcumsumexp", "cummax", "cummin", "sort", "topk", "argmax", "argmin",
}  # fmt: skip
MATMULS = {"mm": (0, 1), "bmm": (0, 1), "matmul": (0, 1), "addmm": (1, 2), "baddbmm": (1, 2), "mv": (0, 1)}
KEEP = {"_to_copy", "clone", "contiguous", "copy", "mul", "div", "neg", "transpose", "permute", "expand",
        "constant_pad_nd", "cat", "index", "index_select", "flip", "_unsafe_view"}  # K copies stay "K"


class OpWatcher(TorchDispatchMode):
    """Records the largest op output (numel), attention ops, and (structure=True) how tiles are combined.

    Structure (q, k, v given):
    - a "score tile" is the output of a matmul with (a copy / cast / slice of) K as an operand; every
      score element computed is counted (an online softmax computes each score once);
    - tensors derived elementwise from a score tile (masked, minus the max, exp) belong to it;
    - once a newer score tile exists, reading an older one (or anything derived from it elementwise)
      means the tiles were not combined online (e.g. a max over all key tiles first);
    - reductions over scores, and matmuls other than Q K^T (P V), combine at most block_size keys;
    - with float16/bfloat16 inputs every matmul and reduction runs in float32.
    """

    def __init__(self, q=None, k=None, block_size=None):
        super().__init__()
        self.largest = (0, "")
        self.ops = 0
        self.attention_ops: list[str] = []
        self.structure = q is not None
        self.block_size = block_size
        self.low = q is not None and q.dtype != torch.float32
        self.kids: dict[int, torch.Tensor] = {}  # storages holding K or a copy/slice of it
        self.tiles: dict[int, tuple[int, torch.Tensor]] = {}  # storage -> (tile serial, tensor kept alive)
        self.serial = 0
        self.score_elements = 0
        self.problems: list[str] = []
        if k is not None:
            self.kids[k.untyped_storage().data_ptr()] = k

    def _problem(self, msg):
        if msg not in self.problems and len(self.problems) < 3:
            self.problems.append(msg)

    @staticmethod
    def _ptr(t):
        return t.untyped_storage().data_ptr() if isinstance(t, torch.Tensor) and t.layout == torch.strided else None

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        self.ops += 1
        out = func(*args, **kwargs)
        if "attention" in str(func):
            self.attention_ops.append(str(func))
        outs = [t for t in tree_leaves(out) if isinstance(t, torch.Tensor)]
        for t in outs:
            if t.numel() > self.largest[0]:
                self.largest = (t.numel(), f"{func} -> shape {tuple(t.shape)}")
        if self.structure and not func.is_view:
            self._check(func, args, kwargs, outs)
        return out

    def _check(self, func, args, kwargs, outs):
        name = func.overloadpacket.__name__
        base = name[:-1] if name.endswith("_") else name
        leaves = [t for t in tree_leaves((args, kwargs)) if isinstance(t, torch.Tensor)]
        ptrs = [self._ptr(t) for t in leaves]
        tile_ids = [self.tiles[p][0] for p in ptrs if p in self.tiles]
        if tile_ids and min(tile_ids) < self.serial:
            self._problem(
                f"{func} read score tile #{min(tile_ids)} after tile #{self.serial} was computed: combine each "
                "key tile into the running max / denominator / accumulator as soon as it is computed "
                "(online softmax) instead of finishing the row max over all tiles first")
        if base in MATMULS:
            a, b = (args[i] for i in MATMULS[base])
            if self.low and outs and outs[0].dtype != torch.float32:
                self._problem(f"{func} ran in {outs[0].dtype}: upcast the tiles and accumulate in float32")
            if self._ptr(a) in self.kids or self._ptr(b) in self.kids:  # Q K^T: a new score tile
                self.serial += 1
                self.score_elements += outs[0].numel()
                for t in outs:
                    self.tiles[self._ptr(t)] = (self.serial, t)
                return
            width = a.shape[-1] if a.dim() else 1
            if width > self.block_size:
                self._problem(
                    f"{func} contracted {width} keys at once (shapes {tuple(a.shape)} @ {tuple(b.shape)}); "
                    f"block_size is {self.block_size}: multiply P by V one key tile at a time")
            return
        if name in REDUCTIONS:
            if self.low and outs and outs[0].is_floating_point() and outs[0].dtype != torch.float32:
                self._problem(f"{func} ran in {outs[0].dtype}: accumulate in float32")
            x = args[0]
            dim = args[1] if len(args) > 1 else kwargs.get("dim")
            if isinstance(dim, torch.Tensor):
                return
            if dim is None and name in ("_softmax", "_log_softmax", "softmax", "log_softmax", "sort", "cumsum"):
                dim = -1
            dims = range(x.dim()) if dim is None or dim == [] else ([dim] if isinstance(dim, int) else list(dim))
            width = 1
            for d in dims:
                width *= x.shape[d] if x.dim() else 1
            if width > self.block_size and (self._ptr(x) in self.tiles or x.shape[-1] > self.block_size):
                self._problem(
                    f"{func} reduced {width} elements of shape {tuple(x.shape)} at once; block_size is "
                    f"{self.block_size}: reduce one key tile at a time and carry a running max / sum")
            return
        # K copies (cast, scale, slice, transpose...) stay K; elementwise results of a tile stay that tile
        if any(p in self.kids for p in ptrs) and base in KEEP:
            for t in outs:
                self.kids.setdefault(self._ptr(t), t)
        if tile_ids:
            tile_shapes = {tuple(self.tiles[p][1].shape) for p in ptrs if p in self.tiles}
            for t in outs:
                if tuple(t.shape) in tile_shapes:
                    self.tiles[self._ptr(t)] = (max(tile_ids), t)


def make(shape, device, dtype=torch.float32):
    return [torch.randn(shape, device=device).to(dtype) for _ in range(3)]


def run(candidate, q, k, v, block_size, causal, structure=True):
    originals = [t.clone() for t in (q, k, v)]
    watcher = OpWatcher(q, k, block_size) if structure else OpWatcher()
    with watcher:
        out = candidate.tiled_attention(q, k, v, block_size=block_size, causal=causal)
    assert all(torch.equal(a, b) for a, b in zip((q, k, v), originals)), "tiled_attention modified q, k or v"
    assert not watcher.attention_ops, f"fused attention ops are not allowed: {sorted(set(watcher.attention_ops))}"
    assert out.shape == q.shape, f"output shape {tuple(out.shape)} != {tuple(q.shape)}"
    assert out.dtype == q.dtype, f"output dtype {out.dtype} != q.dtype {q.dtype}"
    assert out.device == q.device, "output must be on q's device"
    assert not watcher.problems, "\n".join(watcher.problems)
    if structure:
        B, H, S, _ = q.shape
        S_pad = -(-S // block_size) * block_size
        assert watcher.score_elements <= B * H * S_pad * S_pad, (
            f"{watcher.score_elements} score elements computed for B*H*S*S = {B * H * S * S}: compute each "
            "score once (no second pass over the key tiles to re-derive the scores after a max pass)")
    return out, watcher


def reference(q, k, v, causal):
    return F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("S,D,block_size", [(64, 32, 16), (100, 16, 32), (129, 64, 64), (40, 8, 64)])
def test_matches_sdpa(candidate, device, seed, causal, S, D, block_size):
    q, k, v = make((2, 3, S, D), device)
    out, _ = run(candidate, q, k, v, block_size, causal)
    torch.testing.assert_close(
        out, reference(q, k, v, causal), **TOL[torch.float32],
        msg=lambda m: f"differs from SDPA (S={S}, D={D}, block={block_size}, causal={causal})\n" + m,
    )


@pytest.mark.parametrize("causal", [False, True])
def test_random_shapes(candidate, device, seed, causal):
    """Seeded draws: B, H, S, D from 1 up, S not a multiple of block_size, block_size 1 and > S."""
    gen = torch.Generator().manual_seed(300 + seed)
    cases = [((1, 1, 1, 1), 1), ((1, 1, 1, 8), 4), ((2, 1, 5, 3), 1), ((1, 2, 17, 4), 16)]
    for _ in range(4):
        B, H = int(torch.randint(1, 4, (), generator=gen)), int(torch.randint(1, 4, (), generator=gen))
        S, D = int(torch.randint(1, 90, (), generator=gen)), int(torch.randint(1, 40, (), generator=gen))
        cases.append(((B, H, S, D), int(torch.randint(1, S + 10, (), generator=gen))))
    for shape, block_size in cases:
        q, k, v = make(shape, device)
        out, _ = run(candidate, q, k, v, block_size, causal)
        torch.testing.assert_close(
            out, reference(q, k, v, causal), **TOL[torch.float32],
            msg=lambda m: f"shape {shape}, block_size {block_size}, causal {causal}\n" + m,
        )


def test_default_block_size(candidate, device):
    q, k, v = make((1, 2, 150, 8), device)
    out = candidate.tiled_attention(q, k, v)  # block_size=64, causal=False
    torch.testing.assert_close(out, reference(q, k, v, False), **TOL[torch.float32])
    out = candidate.tiled_attention(q, k, v, causal=True)
    torch.testing.assert_close(out, reference(q, k, v, True), **TOL[torch.float32])


@pytest.mark.parametrize("causal", [False, True])
def test_vectorised_over_batch_and_heads(candidate, device, causal):
    counts = []
    for B, H in ((2, 2), (5, 6)):
        q, k, v = make((B, H, 40, 8), device)
        out, watcher = run(candidate, q, k, v, 16, causal)
        torch.testing.assert_close(out, reference(q, k, v, causal), **TOL[torch.float32])
        counts.append(watcher.ops)
    assert counts[1] <= counts[0] + 4, (
        f"B=2, H=2 ran {counts[0]} tensor ops but B=5, H=6 ran {counts[1]}: vectorise over batch and heads, "
        "loop over tiles only"
    )


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("causal", [False, True])
def test_low_precision(candidate, device, seed, dtype, causal):
    q, k, v = make((2, 2, 96, 32), device, dtype)
    out, _ = run(candidate, q, k, v, 32, causal)
    torch.testing.assert_close(
        out.float(), reference(q, k, v, causal), **TOL[dtype],
        msg=lambda m: f"{dtype} inputs: accumulate in float32, return q.dtype\n" + m,
    )


def test_large_logits(candidate, device, seed):
    q, k, v = make((1, 2, 80, 16), device)
    q = q * 30  # logits of several hundred: needs the running max
    out, _ = run(candidate, q, k, v, 16, False)
    assert torch.isfinite(out).all(), "inf/NaN with large logits: subtract the running max before exp"
    torch.testing.assert_close(out, reference(q, k, v, False), atol=1e-4, rtol=1e-3)


def test_causal_no_future_leak(candidate, device, seed):
    q, k, v = make((1, 2, 70, 16), device)
    out, _ = run(candidate, q, k, v, 16, True)
    k2, v2 = k.clone(), v.clone()
    k2[:, :, 40:] = torch.randn_like(k2[:, :, 40:])
    v2[:, :, 40:] = torch.randn_like(v2[:, :, 40:]) * 100
    out2, _ = run(candidate, q, k2, v2, 16, True)
    torch.testing.assert_close(out[:, :, :40], out2[:, :, :40], msg=lambda m: "causal: changing keys/values at positions >= 40 changed outputs before 40\n" + m)


@pytest.mark.parametrize("causal", [False, True])
def test_never_materialises_s_by_s(candidate, device, causal):
    if device != "cpu":
        pytest.skip("op-level check runs on CPU; CUDA has test_cuda_peak_memory")
    S = 1024
    q, k, v = make((1, 2, S, 32), device)
    out, watcher = run(candidate, q, k, v, 64, causal, structure=False)
    numel, where = watcher.largest
    assert numel < S * S // 2, (
        f"an op produced {numel} elements ({where}); S*S/2 = {S * S // 2}. "
        "Never build the S x S score matrix (or mask): work on tiles."
    )
    torch.testing.assert_close(out, reference(q, k, v, causal), **TOL[torch.float32])


@pytest.mark.parametrize("causal", [False, True])
def test_cuda_peak_memory(candidate, device, causal):
    if device != "cuda":
        pytest.skip("CUDA allocator check")
    S = 4096
    q, k, v = make((1, 4, S, 64), device)
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    out = candidate.tiled_attention(q, k, v, block_size=128, causal=causal)
    torch.cuda.synchronize()
    extra = torch.cuda.max_memory_allocated() - base
    limit = S * S * 4 // 2
    assert extra < limit, f"peak extra memory {extra / 2**20:.1f} MiB >= {limit / 2**20:.1f} MiB (half of one S x S fp32 matrix)"
    torch.testing.assert_close(out, reference(q, k, v, causal), atol=1e-4, rtol=1e-3)


BENCH_SHAPE = {"cuda": (4, 16, 2048, 64), "cpu": (1, 4, 512, 64)}


def bench_inputs(device):
    """The seeded q, k, v that benchmark_case and builtin_case both attend over."""
    torch.manual_seed(0)
    return make(BENCH_SHAPE[device], device)


def benchmark_case(module, device):
    q, k, v = bench_inputs(device)
    return lambda: module.tiled_attention(q, k, v, block_size=128, causal=True)


def builtin_case(device):
    """The same causal attention by torch's fused scaled_dot_product_attention."""
    q, k, v = bench_inputs(device)
    return lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True)
