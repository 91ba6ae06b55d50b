"""Hidden tests for the tiled-attention drill."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves

TOL = {torch.float32: dict(atol=2e-5, rtol=2e-4), torch.float16: dict(atol=1e-2, rtol=2e-2),
       torch.bfloat16: dict(atol=1e-2, rtol=2e-2)}  # fmt: skip


class OpWatcher(TorchDispatchMode):
    """Records the largest op output (numel) and any attention op that runs."""

    def __init__(self):
        super().__init__()
        self.largest = (0, "")
        self.attention_ops: list[str] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if "attention" in str(func):
            self.attention_ops.append(str(func))
        for t in tree_leaves(out):
            if isinstance(t, torch.Tensor) and t.numel() > self.largest[0]:
                self.largest = (t.numel(), f"{func} -> shape {tuple(t.shape)}")
        return out


def make(shape, device, dtype=torch.float32):
    return [torch.randn(shape, device=device).to(dtype) for _ in range(3)]


def run(candidate, q, k, v, block_size, causal):
    originals = [t.clone() for t in (q, k, v)]
    watcher = OpWatcher()
    with watcher:
        out = candidate.tiled_attention(q, k, v, block_size=block_size, causal=causal)
    assert all(torch.equal(a, b) for a, b in zip((q, k, v), originals)), "tiled_attention modified q, k or v"
    assert not watcher.attention_ops, f"fused attention ops are not allowed: {sorted(set(watcher.attention_ops))}"
    assert out.shape == q.shape, f"output shape {tuple(out.shape)} != {tuple(q.shape)}"
    assert out.dtype == q.dtype, f"output dtype {out.dtype} != q.dtype {q.dtype}"
    assert out.device == q.device, "output must be on q's device"
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
    out, watcher = run(candidate, q, k, v, 64, causal)
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
