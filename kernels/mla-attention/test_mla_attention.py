"""Hidden tests for the mla-attention drill."""

from __future__ import annotations

import math

import pytest
import torch

TOL = dict(atol=1e-4, rtol=1e-4)
WEIGHTS = ("w_dkv", "w_uk", "w_uv", "w_kr", "w_q", "w_qr", "w_o")
# (d_model, n_heads, d_head, d_c, d_rope)
CONFIGS = [(32, 4, 8, 12, 4), (24, 1, 6, 10, 2), (40, 3, 10, 16, 8), (16, 2, 4, 6, 6)]


def rope_ref(x, pos, base=10000.0):
    """RoPE through complex numbers: pair (x_2i, x_2i+1) -> (x_2i + i x_2i+1) * e^(i pos base^(-2i/d))."""
    d = x.shape[-1]
    z = torch.view_as_complex(x.double().reshape(*x.shape[:-1], d // 2, 2).contiguous())
    theta = pos.double()[:, None] * base ** (-torch.arange(0, d, 2, dtype=torch.float64, device=x.device) / d)
    return torch.view_as_real(z * torch.polar(torch.ones_like(theta), theta)).flatten(-2)


def reference(mod, h):
    """Full causal MLA over all S tokens of h in float64: (out, c_kv, k_rope)."""
    W = {n: getattr(mod, n).weight.detach().double() for n in WEIGHTS}
    x = h.double()
    B, S, _ = x.shape
    H, D, R = mod.n_heads, mod.d_head, mod.d_rope
    pos = torch.arange(S, device=h.device)
    c = x @ W["w_dkv"].T
    kr = rope_ref(x @ W["w_kr"].T, pos)                                   # (B, S, R)
    k_c = (c @ W["w_uk"].T).view(B, S, H, D)
    v = (c @ W["w_uv"].T).view(B, S, H, D)
    q_c = (x @ W["w_q"].T).view(B, S, H, D)
    q_r = rope_ref((x @ W["w_qr"].T).view(B, S, H, R).transpose(1, 2), pos)  # (B, H, S, R)
    score = (torch.einsum("bthd,bshd->bhts", q_c, k_c) + torch.einsum("bhtr,bsr->bhts", q_r, kr)) / math.sqrt(D + R)
    score = score.masked_fill(torch.ones(S, S, dtype=torch.bool, device=h.device).triu(1), float("-inf"))
    o = torch.einsum("bhts,bshd->bthd", score.softmax(-1), v).reshape(B, S, H * D)
    return o @ W["w_o"].T, c, kr


def make(candidate, cfg, device, seed):
    torch.manual_seed(seed)
    mod = candidate.MLAttention(*cfg)
    gen = torch.Generator().manual_seed(1000 + seed)
    with torch.no_grad():
        for n in WEIGHTS:
            w = getattr(mod, n).weight
            w.copy_(torch.randn(w.shape, generator=gen) / math.sqrt(w.shape[1]))
    return mod.to(device)


def check_cache(mod, cache, B, S):
    assert isinstance(cache, tuple) and len(cache) == 2, "the cache must be a tuple (c_kv, k_rope)"
    c, kr = cache
    want_c, want_r = (B, S, mod.d_c), (B, S, mod.d_rope)
    assert tuple(c.shape) == want_c and tuple(kr.shape) == want_r, (
        f"after {S} tokens the cache must be c_kv {want_c} and k_rope {want_r} (the latent and the shared RoPE key, "
        f"not per-head K/V), got {tuple(c.shape)} and {tuple(kr.shape)}")
    elems = B * S * (mod.d_c + mod.d_rope)
    storages = {}
    for t in (c, kr):
        storages[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
    allowed = elems * c.element_size()
    assert sum(storages.values()) <= allowed, (
        f"the cache's storage holds {sum(storages.values())} bytes, more than the B*S*(d_c+d_rope) = {elems} values "
        f"({allowed} bytes) it may hold: return tensors of exactly the cached values (no full K/V, no spare room)")


def step(mod, h, cache):
    h_before = h.clone()
    cache_before = None if cache is None else tuple(t.clone() for t in cache)
    with torch.no_grad():
        result = mod(h, cache)
    assert torch.equal(h, h_before), "forward modified h in place"
    if cache is not None:
        assert all(torch.equal(a, b) for a, b in zip(cache, cache_before)), (
            "forward modified the cache it was given; return new tensors (torch.cat)")
    assert isinstance(result, tuple) and len(result) == 2, "forward must return (out, (c_kv, k_rope))"
    out, new_cache = result
    B, T, d_model = h.shape
    P = 0 if cache is None else cache[0].shape[1]
    assert tuple(out.shape) == (B, T, d_model), f"out must be (B, T, d_model) = {(B, T, d_model)}, got {tuple(out.shape)}"
    assert out.dtype == h.dtype, f"out must keep h's dtype {h.dtype}, got {out.dtype}"
    check_cache(mod, new_cache, B, P + T)
    return out, new_cache


def decode(mod, h, chunks):
    cache, outs, start = None, [], 0
    for n in chunks:
        out, cache = step(mod, h[:, start:start + n], cache)
        outs.append(out)
        start += n
    assert start == h.shape[1]
    return torch.cat(outs, dim=1), cache


def close(got, want, what):
    torch.testing.assert_close(got.double(), want, **TOL, msg=lambda m: f"{what}:\n{m}")


def test_prefill_cache_is_latent_only(candidate, device, seed):
    cfg = CONFIGS[seed]
    mod = make(candidate, cfg, device, seed)
    h = torch.randn(2, 7, cfg[0], device=device)
    out, (c, kr) = step(mod, h, None)
    ref_out, ref_c, ref_kr = reference(mod, h)
    close(c, ref_c, "cached c_kv must be w_dkv(h), the latent without RoPE")
    close(kr, ref_kr, "cached k_rope must be rope(w_kr(h), positions 0..S-1): RoPE applied, at absolute positions")
    close(out, ref_out, f"prefill output differs from causal MLA (config d_model, H, d_head, d_c, d_rope = {cfg}; "
                        "score = (q_C.k_C + q_R.k_rope) / sqrt(d_head + d_rope))")


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: "x".join(map(str, c)))
def test_prefill_shapes(candidate, device, cfg):
    gen = torch.Generator().manual_seed(sum(cfg))
    mod = make(candidate, cfg, device, 7)
    for B, T in [(1, 1), (int(torch.randint(2, 4, (1,), generator=gen)), int(torch.randint(2, 12, (1,), generator=gen)))]:
        h = torch.randn(B, T, cfg[0], generator=gen).to(device)
        out, (c, kr) = step(mod, h, None)
        ref_out, ref_c, ref_kr = reference(mod, h)
        close(out, ref_out, f"prefill output differs for B={B}, T={T}, config {cfg}")
        close(kr, ref_kr, f"cached k_rope differs for B={B}, T={T}, config {cfg}")


def test_token_by_token(candidate, device, seed):
    cfg = CONFIGS[(seed + 1) % len(CONFIGS)]
    mod = make(candidate, cfg, device, seed)
    h = torch.randn(2, 6, cfg[0], device=device)
    out, (c, kr) = decode(mod, h, [1] * 6)
    ref_out, ref_c, ref_kr = reference(mod, h)
    close(kr, ref_kr, "after token-by-token decoding, k_rope of token p must be rotated at its absolute position p "
                      "(P + t, not t)")
    close(c, ref_c, "after token-by-token decoding the cached c_kv differs from w_dkv(h)")
    close(out, ref_out, f"token-by-token decoding differs from the full causal computation (config {cfg})")


def test_mixed_chunks(candidate, device, seed):
    cfg = CONFIGS[(seed + 2) % len(CONFIGS)]
    mod = make(candidate, cfg, device, seed)
    h = torch.randn(3, 10, cfg[0], device=device)
    out, (c, kr) = decode(mod, h, [3, 1, 4, 2])
    ref_out, _, ref_kr = reference(mod, h)
    close(kr, ref_kr, "after chunks of 3, 1, 4, 2 tokens the cached k_rope differs")
    close(out, ref_out, "chunks of 3, 1, 4, 2 tokens differ from the full computation: new token t sits at position "
                        "P + t and sees keys 0..P + t (a top-left causal mask is wrong when P > 0 and T > 1)")


def test_decode_from_a_given_cache(candidate, device, seed):
    """A cache built outside the module (from the formulas), then several sequences through one module in turn."""
    cfg = CONFIGS[3 - seed]
    mod = make(candidate, cfg, device, seed)
    h = torch.randn(2, 8, cfg[0], device=device)
    ref_out, ref_c, ref_kr = reference(mod, h)
    P = 5
    cache = (ref_c[:, :P].float().contiguous(), ref_kr[:, :P].float().contiguous())
    out, (c, kr) = step(mod, h[:, P:], cache)
    close(out, ref_out[:, P:], "decoding 3 tokens from a cache of 5 built outside the module differs: use only the "
                               "cache you are given (no state kept on the module)")
    close(kr, ref_kr, "the returned k_rope must be the given one followed by the new tokens' rotated keys")
    g = torch.randn(1, 3, cfg[0], device=device)
    ref_g = reference(mod, g)[0]
    cache_h, cache_g, outs_h, outs_g = None, None, [], []
    for i in range(3):
        o, cache_g = step(mod, g[:, i:i + 1], cache_g)
        outs_g.append(o)
        if i < 2:
            o, cache_h = step(mod, h[:, 3 * i:5 * i + 3], cache_h)   # tokens 0..2, then 3..7
            outs_h.append(o)
    close(torch.cat(outs_h, 1), ref_out, "two sequences decoded in turn through one module: the first one differs")
    close(torch.cat(outs_g, 1), ref_g, "two sequences decoded in turn through one module: the second one differs")


def benchmark_case(module, device):
    torch.manual_seed(0)
    mod = module.MLAttention(1024, 8, 128, 256, 64).to(device)
    h = torch.randn(4, 1, 1024, device=device)
    cache = (torch.randn(4, 2047, 256, device=device), torch.randn(4, 2047, 64, device=device))

    def run():
        with torch.no_grad():
            return mod(h, cache)

    return run
