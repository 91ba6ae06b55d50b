"""Hidden tests for the kv-cache-decode drill."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

LOW = dict(atol=3e-2, rtol=3e-2)


def make(candidate, device, d_model=32, n_heads=4, dtype=torch.float32):
    return candidate.CachedSelfAttention(d_model, n_heads).to(device=device, dtype=dtype)


def reference(mod, x):
    """Full causal recompute over the whole sequence, in float32."""
    B, S, D = x.shape
    H = mod.n_heads
    x32 = x.float()

    def proj(lin):
        return F.linear(x32, lin.weight.float()).view(B, S, H, D // H).transpose(1, 2)

    q, k, v = proj(mod.wq), proj(mod.wk), proj(mod.wv)
    o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return F.linear(o.transpose(1, 2).reshape(B, S, D), mod.wo.weight.float()), k, v


def step(mod, x_new, cache):
    snapshot = None if cache is None else (cache[0].clone(), cache[1].clone())
    x_before = x_new.clone()
    result = mod(x_new, cache)
    assert torch.equal(x_new, x_before), "forward modified x_new in place"
    if cache is not None:
        assert torch.equal(cache[0], snapshot[0]) and torch.equal(cache[1], snapshot[1]), (
            "forward modified the cache it was given; return a new (k, v) instead"
        )
    assert isinstance(result, tuple) and len(result) == 2, "forward must return (out, (k_all, v_all))"
    out, new_cache = result
    assert isinstance(new_cache, tuple) and len(new_cache) == 2, "the cache must be a tuple (k_all, v_all)"
    B, T, D = x_new.shape
    P = 0 if cache is None else cache[0].shape[2]
    want = (B, mod.n_heads, P + T, mod.head_dim)
    assert out.shape == (B, T, D), f"out must be (B, T, d_model) = {(B, T, D)}, got {tuple(out.shape)}"
    assert tuple(new_cache[0].shape) == want and tuple(new_cache[1].shape) == want, (
        f"cache must grow from length {P} to {P + T}: expected k, v of shape {want}, "
        f"got {tuple(new_cache[0].shape)}, {tuple(new_cache[1].shape)}"
    )
    return out, new_cache


def decode(mod, x, chunks):
    cache, outs, start = None, [], 0
    for n in chunks:
        out, cache = step(mod, x[:, start : start + n], cache)
        outs.append(out)
        start += n
    assert start == x.shape[1]
    return torch.cat(outs, dim=1), cache


@torch.no_grad()
def test_prefill_matches_full_recompute(candidate, device, seed):
    mod = make(candidate, device)
    x = torch.randn(2, 12, 32, device=device)
    out, (k, v) = step(mod, x, None)
    ref, k_ref, v_ref = reference(mod, x)
    torch.testing.assert_close(out, ref, msg=lambda m: "prefill (cache=None) differs from causal attention\n" + m)
    torch.testing.assert_close(k, k_ref, msg=lambda m: "cached keys must be wk(x) split into heads (B, H, S, Dh)\n" + m)
    torch.testing.assert_close(v, v_ref, msg=lambda m: "cached values must be wv(x) split into heads\n" + m)


@torch.no_grad()
def test_token_by_token(candidate, device, seed):
    mod = make(candidate, device)
    x = torch.randn(2, 10, 32, device=device)
    out, (k, v) = decode(mod, x, [1] * 10)
    ref, k_ref, v_ref = reference(mod, x)
    torch.testing.assert_close(out, ref, msg=lambda m: "token-by-token decoding differs from full causal recompute\n" + m)
    torch.testing.assert_close(k, k_ref)
    torch.testing.assert_close(v, v_ref)


@pytest.mark.parametrize("chunks", [[5, 1, 3, 1, 2], [1, 4, 4, 3], [2, 2, 2, 2, 2, 2]])
@torch.no_grad()
def test_prefill_then_mixed_chunks(candidate, device, seed, chunks):
    mod = make(candidate, device, d_model=48, n_heads=6)
    x = torch.randn(3, sum(chunks), 48, device=device)
    out, _ = decode(mod, x, chunks)
    ref, _, _ = reference(mod, x)
    torch.testing.assert_close(
        out, ref,
        msg=lambda m: (
            f"chunks {chunks}: a multi-token chunk after a non-empty cache must use absolute positions "
            "(query P+i sees keys 0..P+i); a top-left causal mask is wrong there\n" + m
        ),
    )


@torch.no_grad()
def test_no_future_leak(candidate, device, seed):
    mod = make(candidate, device)
    x = torch.randn(1, 9, 32, device=device)
    out, _ = decode(mod, x, [4, 5])
    x2 = x.clone()
    x2[:, 6:] = torch.randn_like(x2[:, 6:]) * 10
    out2, _ = decode(mod, x2, [4, 5])
    torch.testing.assert_close(out[:, :6], out2[:, :6], msg=lambda m: "outputs at positions < 6 changed when tokens >= 6 changed (future leak)\n" + m)


MATMULS = {"mm": 0, "addmm": 1, "bmm": 0, "baddbmm": 1, "mv": 0, "addmv": 1, "matmul": 0}


class ProjectionWork(TorchDispatchMode):
    """Sums the multiply-adds of every matmul that contracts d_model (the projections), however they
    are written: four separate nn.Linear calls, a fused QKV weight, einsum, x @ W.T ..."""

    def __init__(self, d_model):
        super().__init__()
        self.d_model = d_model
        self.macs = 0
        self.where: list[str] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        name = func.overloadpacket.__name__
        if name in MATMULS:
            a, b = args[MATMULS[name]], args[MATMULS[name] + 1]
            if a.dim() >= 1 and a.shape[-1] == self.d_model:
                n = b.shape[-1] if b.dim() >= 2 else 1
                self.macs += a.numel() * n
                self.where.append(f"{func}{tuple(a.shape)}x{tuple(b.shape)}")
        return func(*args, **(kwargs or {}))


@torch.no_grad()
def test_projects_only_new_tokens(candidate, device):
    """A call with T new tokens may project only those: at most 4 * B * T * d_model**2 multiply-adds
    in matmuls contracting d_model (q, k, v and o projections), whatever module or fused weight runs."""
    d, h = 32, 4
    mod = make(candidate, device, d_model=d, n_heads=h)
    x = torch.randn(2, 9, d, device=device)
    cache = None
    for start, n in ((0, 6), (6, 1), (7, 2)):
        work = ProjectionWork(d)
        with work:
            _, cache = step(mod, x[:, start : start + n], cache)
        budget = 4 * 2 * n * d * d
        assert 0 < work.macs <= budget, (
            f"a call with {n} new token(s) after {start} cached ran {work.macs} multiply-adds in matmuls "
            f"contracting d_model (budget {budget} = 4 projections x B*T rows x d_model^2): project only the "
            f"new tokens, never the cached ones ({', '.join(work.where)})"
        )


@torch.no_grad()
def test_uses_the_given_cache(candidate, device, seed):
    """The cache argument is the only memory: a cache built elsewhere (the reference's keys/values of
    the first tokens) works, and branching twice from one cache gives two independent continuations."""
    mod = make(candidate, device)
    x = torch.randn(2, 9, 32, device=device)
    ref, k_ref, v_ref = reference(mod, x)
    given = (k_ref[:, :, :6].clone(), v_ref[:, :, :6].clone())
    out, (k, v) = step(mod, x[:, 6:], given)
    torch.testing.assert_close(out, ref[:, 6:], msg=lambda m: "a cache the module did not build itself must be used as given\n" + m)
    torch.testing.assert_close(k, k_ref)
    other = x.clone()
    other[:, 6:] = torch.randn(2, 3, 32, device=device)
    ref2, _, _ = reference(mod, other)
    out_a, cache_a = step(mod, x[:, 6:8], given)
    kept = (cache_a[0].clone(), cache_a[1].clone())
    out_b, _ = step(mod, other[:, 6:8], given)  # branch again from the same cache
    torch.testing.assert_close(out_a, ref[:, 6:8])
    torch.testing.assert_close(out_b, ref2[:, 6:8], msg=lambda m: "second branch from the same cache\n" + m)
    assert torch.equal(cache_a[0], kept[0]) and torch.equal(cache_a[1], kept[1]), (
        "a returned cache changed when the module was called again: keep no state on the module"
    )
    out_c, _ = step(mod, x[:, 8:9], cache_a)
    torch.testing.assert_close(out_c, ref[:, 8:9], msg=lambda m: "continuing the first branch after the second\n" + m)


@torch.no_grad()
def test_random_shapes(candidate, device, seed):
    """Seeded draws of batch, heads, head_dim and chunk sizes (including B = 1 and one head)."""
    gen = torch.Generator().manual_seed(500 + seed)
    configs = [(1, 1, 8, [1, 1, 1]), (3, 2, 4, [7])]
    for _ in range(3):
        B, h, dh = (int(torch.randint(1, hi, (), generator=gen)) for hi in (4, 5, 9))
        chunks = [int(torch.randint(1, 5, (), generator=gen)) for _ in range(int(torch.randint(1, 5, (), generator=gen)))]
        configs.append((B, h, dh, chunks))
    for B, h, dh, chunks in configs:
        mod = make(candidate, device, d_model=h * dh, n_heads=h)
        x = torch.randn(B, sum(chunks), h * dh, device=device)
        out, (k, v) = decode(mod, x, chunks)
        ref, k_ref, v_ref = reference(mod, x)
        torch.testing.assert_close(out, ref, msg=lambda m: f"B={B}, n_heads={h}, head_dim={dh}, chunks {chunks}\n" + m)
        torch.testing.assert_close(k, k_ref)
        torch.testing.assert_close(v, v_ref)


@torch.no_grad()
def test_bfloat16_module(candidate, device, seed):
    mod = make(candidate, device, dtype=torch.bfloat16)
    x = torch.randn(2, 8, 32, device=device).to(torch.bfloat16)
    out, (k, _) = decode(mod, x, [3, 1, 4])
    assert out.dtype == torch.bfloat16 and k.dtype == torch.bfloat16, "a bfloat16 module returns bfloat16 outputs and cache"
    ref, _, _ = reference(mod, x)
    torch.testing.assert_close(out.float(), ref, **LOW, msg=lambda m: "bfloat16 decode vs float32 recompute\n" + m)


BENCH_SIZE = {"cuda": (1024, 16, 8, 1024), "cpu": (256, 4, 2, 256)}  # d_model, heads, batch, cached length
PROJECTIONS = ("wq", "wk", "wv", "wo")


def bench_inputs(device):
    """Seeded weights, a cache of P tokens and one new token per sequence, for both cases below."""
    torch.manual_seed(0)
    d, h, B, P = BENCH_SIZE[device]
    weights = {name: torch.randn(d, d, device=device) / d**0.5 for name in PROJECTIONS}
    cache = (torch.randn(B, h, P, d // h, device=device), torch.randn(B, h, P, d // h, device=device))
    return weights, cache, torch.randn(B, 1, d, device=device)


def benchmark_case(module, device):
    weights, cache, x = bench_inputs(device)
    d, h, _, _ = BENCH_SIZE[device]
    mod = module.CachedSelfAttention(d, h).to(device)
    with torch.no_grad():
        for name, weight in weights.items():
            getattr(mod, name).weight.copy_(weight)

    def decode_step():
        with torch.no_grad():
            return mod(x, cache)

    return decode_step


def builtin_case(device):
    """The same decode step in torch built-ins: F.linear projections, torch.cat onto the cache, SDPA."""
    weights, (k_cache, v_cache), x = bench_inputs(device)
    d, h, B, _ = BENCH_SIZE[device]

    def heads(name):
        return F.linear(x, weights[name]).view(B, 1, h, d // h).transpose(1, 2)

    def decode_step():
        k, v = torch.cat([k_cache, heads("wk")], dim=2), torch.cat([v_cache, heads("wv")], dim=2)
        o = F.scaled_dot_product_attention(heads("wq"), k, v)
        return F.linear(o.transpose(1, 2).reshape(B, 1, d), weights["wo"]), (k, v)

    return decode_step


def bytes_moved(device):
    """Decode is memory-bound: one float32 read of the cached k and v (2 * B * P * d * 4 bytes), one
    write of the grown cache the contract returns as new tensors (2 * B * (P + 1) * d * 4), the four
    d x d projection weights (4 * d * d * 4) and the new token in and its output out (2 * B * d * 4).
    """
    d, _, B, P = BENCH_SIZE[device]
    return 2 * B * P * d * 4 + 2 * B * (P + 1) * d * 4 + 4 * d * d * 4 + 2 * B * d * 4
