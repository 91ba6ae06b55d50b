"""Hidden tests for the gqa-attention drill."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves

LOW = dict(atol=1e-2, rtol=2e-2)
HEADS = [(8, 2), (6, 3), (4, 4), (4, 1), (6, 1)]  # (Hq, Hkv): GQA, GQA, MHA, MQA, MQA


class OpCounter(TorchDispatchMode):
    """Counts the tensor ops a call dispatches."""

    def __init__(self):
        super().__init__()
        self.count = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.count += 1
        return func(*args, **(kwargs or {}))


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
    """True if t, cut into G consecutive equal slices of one of `chunks`, repeats one non-constant slice."""
    flat = t.detach().reshape(-1)
    if flat.min() == flat.max():
        return False
    for c in chunks:
        if flat.numel() % (G * c) == 0:
            r = flat.view(-1, G, c)
            if torch.equal(r, r[:, :1].expand_as(r)):
                return True
    return False


def holds_values_g_times(t: torch.Tensor, G: int, min_distinct: int) -> bool:
    """True if t holds many distinct values each at least G times, whatever its layout.

    Used on inputs whose values are all distinct: a copy of K or V repeated per query head
    (in any layout, scaled, cast or transposed) is then the only way for most of a tensor's
    values to occur G times over. A mask (few distinct values) or coincidental equal floats
    do not reach the thresholds: at least min_distinct such values, covering half the tensor.
    """
    flat = t.detach().reshape(-1).float()
    flat = flat[torch.isfinite(flat) & (flat != 0)]
    if flat.numel() < G * min_distinct:
        return False
    _, counts = torch.unique(flat, return_counts=True)
    repeated = counts >= G
    return int(repeated.sum()) >= min_distinct and int(counts[repeated].sum()) * 2 >= flat.numel()


def distinct_values(shapes, dtype, gen, device):
    """Random tensors of the given shapes whose values are all distinct (across all of them)."""
    total = sum(torch.Size(s).numel() for s in shapes)
    if dtype == torch.float32:
        pool = torch.randn(4 * total, generator=gen).unique()
    else:  # every finite value of the 16-bit dtype with 2**-8 <= |x| < 4
        pool = torch.arange(-(2**15), 2**15, dtype=torch.int32).to(torch.int16).view(dtype).float()
        pool = pool[(pool.abs() >= 2**-8) & (pool.abs() < 4)]
    assert pool.numel() >= total
    vals = pool[torch.randperm(pool.numel(), generator=gen)[:total]]
    out, start = [], 0
    for s in shapes:
        n = torch.Size(s).numel()
        out.append(vals[start : start + n].view(s).to(device=device, dtype=dtype))
        start += n
    return out


def make(B, Hq, Hkv, S, D, device, dtype=torch.float32):
    q = torch.randn(B, Hq, S, D, device=device).to(dtype)
    k = torch.randn(B, Hkv, S, D, device=device).to(dtype)
    v = torch.randn(B, Hkv, S, D, device=device).to(dtype)
    return q, k, v


def reference(q, k, v, causal):
    G = q.shape[1] // k.shape[1]
    k_rep, v_rep = k.float().repeat_interleave(G, 1), v.float().repeat_interleave(G, 1)
    return F.scaled_dot_product_attention(q.float(), k_rep, v_rep, is_causal=causal)


def run(candidate, q, k, v, causal, distinct_inputs=False):
    """Call the candidate under the allocation watcher and check the rules of the prompt.

    distinct_inputs: q, k, v hold only distinct values, so any tensor holding most of its values
    G times over is a repeated K/V copy, whatever its layout.
    """
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
    if G > 1 and S > 1:  # with S == 1 the output itself legitimately equals V repeated per head
        for name, t in watcher.fresh:
            assert not repeated_per_group(t, G, [S * D, Hkv * S * D]), (
                f"{name} allocated a tensor of shape {tuple(t.shape)} holding K or V repeated {G} times per "
                "query head; share each K/V head across its group without copying (a broadcasting matmul "
                "copies the broadcast operand too)"
            )
            if distinct_inputs:
                assert not holds_values_g_times(t, G, S * D // 2), (
                    f"{name} allocated a tensor of shape {tuple(t.shape)} / strides {t.stride()} in which most "
                    f"values occur {G} times: K or V copied once per query head in some layout (repeated along "
                    "another axis, after a transpose, scaled or cast); share each K/V head across its group "
                    "without copying"
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


@pytest.mark.parametrize("causal", [False, True])
def test_random_shapes(candidate, device, seed, causal):
    """Odd sizes, size-1 dims (B, S, D, Hkv, G = 1), batch > 1, drawn from a seeded generator."""
    gen = torch.Generator().manual_seed(100 + seed)
    draws = [(1, 1, 1, 1, 1), (3, 5, 1, 1, 7)]  # B, Hkv, G, S, D: all ones; single-token decode (S = 1)
    for _ in range(4):
        B, Hkv, G = (int(torch.randint(1, hi, (), generator=gen)) for hi in (4, 4, 5))
        S, D = int(torch.randint(2, 38, (), generator=gen)), int(torch.randint(1, 41, (), generator=gen))
        draws.append((B, Hkv, G, S, D))
    for B, Hkv, G, S, D in draws:
        q, k, v = make(B, Hkv * G, Hkv, S, D, device)
        out = run(candidate, q, k, v, causal)
        torch.testing.assert_close(
            out, reference(q, k, v, causal),
            msg=lambda m: f"B={B}, Hq={Hkv * G}, Hkv={Hkv}, S={S}, D={D}, causal={causal}\n" + m,
        )


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("causal", [False, True])
def test_no_repeated_kv_in_any_layout(candidate, device, causal, dtype):
    """All input values distinct: no allocated tensor may hold K or V values once per query head."""
    gen = torch.Generator().manual_seed(7)
    B, Hq, Hkv, S, D = (2, 8, 2, 40, 16) if dtype == torch.float32 else (1, 4, 2, 16, 16)
    q, k, v = distinct_values([(B, Hq, S, D), (B, Hkv, S, D), (B, Hkv, S, D)], dtype, gen, device)
    out = run(candidate, q, k, v, causal, distinct_inputs=True)
    tol = {} if dtype == torch.float32 else LOW
    torch.testing.assert_close(out.float(), reference(q, k, v, causal), **tol)


@pytest.mark.parametrize("causal", [False, True])
def test_vectorised_over_batch_and_heads(candidate, device, causal):
    """Same G, S, D, more batch and heads: a vectorised call dispatches (about) the same number of ops."""
    counts = []
    for B, Hkv in ((2, 2), (5, 6)):
        q, k, v = make(B, 2 * Hkv, Hkv, 12, 8, device)
        counter = OpCounter()
        with counter:
            out = candidate.gqa_attention(q, k, v, causal=causal)
        torch.testing.assert_close(out, reference(q, k, v, causal))
        counts.append(counter.count)
    assert counts[1] <= counts[0] + 4, (
        f"B=2, Hkv=2 ran {counts[0]} tensor ops but B=5, Hkv=6 ran {counts[1]}: "
        "vectorise over batch and heads instead of looping over them in Python"
    )


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
