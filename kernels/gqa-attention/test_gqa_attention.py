"""Hidden tests for the gqa-attention drill."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves

LOW = dict(atol=1e-2, rtol=2e-2)
HEADS = [(8, 2), (6, 3), (4, 4), (4, 1), (6, 1)]  # (Hq, Hkv): GQA, GQA, MHA, MQA, MQA


class AllocWatcher(TorchDispatchMode):
    """Keeps every tensor an op allocates (fresh storage, not a view of an input) and attention op names."""

    def __init__(self):
        super().__init__()
        self.fresh: list[tuple[str, torch.Tensor]] = []
        self.attention_ops: list[str] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        inputs = {t.untyped_storage().data_ptr() for t in tree_leaves((args, kwargs)) if isinstance(t, torch.Tensor)}
        out = func(*args, **kwargs)
        if "attention" in str(func):
            self.attention_ops.append(str(func))
        for t in tree_leaves(out):
            if isinstance(t, torch.Tensor) and t.is_floating_point() and t.numel() > 0:
                if t.untyped_storage().data_ptr() not in inputs:
                    self.fresh.append((str(func), t))
        return out


def repeated_per_group(t: torch.Tensor, G: int, chunks: list[int]) -> bool:
    flat = t.detach().reshape(-1)
    if flat.min() == flat.max():
        return False
    for c in chunks:
        if flat.numel() % (G * c) == 0:
            r = flat.view(-1, G, c)
            if torch.equal(r, r[:, :1].expand_as(r)):
                return True
    return False


def make(B, Hq, Hkv, S, D, device, dtype=torch.float32):
    q = torch.randn(B, Hq, S, D, device=device).to(dtype)
    k = torch.randn(B, Hkv, S, D, device=device).to(dtype)
    v = torch.randn(B, Hkv, S, D, device=device).to(dtype)
    return q, k, v


def reference(q, k, v, causal):
    G = q.shape[1] // k.shape[1]
    k_rep, v_rep = k.float().repeat_interleave(G, 1), v.float().repeat_interleave(G, 1)
    return F.scaled_dot_product_attention(q.float(), k_rep, v_rep, is_causal=causal)


def run(candidate, q, k, v, causal):
    originals = [t.clone() for t in (q, k, v)]
    watcher = AllocWatcher()
    with watcher:
        out = candidate.gqa_attention(q, k, v, causal=causal)
    assert all(torch.equal(a, b) for a, b in zip((q, k, v), originals)), "gqa_attention modified q, k or v"
    assert not watcher.attention_ops, f"fused attention ops are not allowed: {sorted(set(watcher.attention_ops))}"
    assert out.shape == q.shape, f"output shape {tuple(out.shape)} != q.shape {tuple(q.shape)}"
    assert out.dtype == q.dtype, f"output dtype {out.dtype} != q.dtype {q.dtype}"
    B, Hq, S, D = q.shape
    Hkv = k.shape[1]
    G = Hq // Hkv
    if G > 1:
        for name, t in watcher.fresh:
            assert not repeated_per_group(t, G, [S * D, Hkv * S * D]), (
                f"{name} allocated a tensor of shape {tuple(t.shape)} holding K or V repeated {G} times per "
                "query head; share each K/V head across its group without copying (a broadcasting matmul "
                "copies the broadcast operand too)"
            )
    return out


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("Hq,Hkv", HEADS)
def test_matches_repeat_interleave_reference(candidate, device, seed, causal, Hq, Hkv):
    q, k, v = make(2, Hq, Hkv, 24, 16, device)
    out = run(candidate, q, k, v, causal)
    torch.testing.assert_close(
        out, reference(q, k, v, causal),
        msg=lambda m: f"Hq={Hq}, Hkv={Hkv}, causal={causal}: query head h must use K/V head h // (Hq // Hkv)\n" + m,
    )


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_low_precision(candidate, device, seed, dtype):
    q, k, v = make(2, 8, 2, 20, 32, device, dtype)
    out = run(candidate, q, k, v, True)
    torch.testing.assert_close(out.float(), reference(q, k, v, True), **LOW, msg=lambda m: f"{dtype}\n" + m)


def test_causal_no_future_leak(candidate, device, seed):
    q, k, v = make(1, 4, 2, 30, 8, device)
    out = run(candidate, q, k, v, True)
    k2, v2 = k.clone(), v.clone()
    k2[:, :, 20:] += 5.0
    v2[:, :, 20:] *= -3.0
    out2 = run(candidate, q, k2, v2, True)
    torch.testing.assert_close(out[:, :, :20], out2[:, :, :20], msg=lambda m: "causal: keys >= 20 influenced queries < 20\n" + m)


def test_not_divisible(candidate, device):
    q, k, v = make(1, 6, 4, 8, 8, device)
    with pytest.raises(ValueError):
        candidate.gqa_attention(q, k, v)


BENCH_SHAPE = {"cuda": (4, 32, 8, 1024, 128), "cpu": (1, 8, 2, 256, 64)}  # B, Hq, Hkv, S, D


def bench_inputs(device):
    """The seeded q, k, v that benchmark_case and builtin_case both attend over."""
    torch.manual_seed(0)
    return make(*BENCH_SHAPE[device], device)


def benchmark_case(module, device):
    q, k, v = bench_inputs(device)
    return lambda: module.gqa_attention(q, k, v, causal=True)


def builtin_case(device):
    """The same causal GQA by torch's fused scaled_dot_product_attention, sharing K/V heads itself."""
    q, k, v = bench_inputs(device)
    return lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
