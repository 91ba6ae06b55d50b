"""Hidden tests for the decoder-block drill (pre-norm causal decoder block)."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

D, H, FF = 32, 4, 64
EPS = 1e-5


def state_shapes(d: int, ff: int) -> dict[str, tuple[int, ...]]:
    """The state_dict contract of DecoderBlock(d, n_heads, ff)."""
    return {
        "norm1.weight": (d,),
        "qkv.weight": (3 * d, d),
        "proj.weight": (d, d),
        "norm2.weight": (d,),
        "w_gate.weight": (ff, d),
        "w_up.weight": (ff, d),
        "w_down.weight": (d, ff),
    }


KEYS = state_shapes(D, FF)


@pytest.fixture
def no_sdpa(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forbid the fused attention helpers (patched before the candidate is imported)."""

    def forbidden(*args, **kwargs):
        raise AssertionError("do not call F.scaled_dot_product_attention / nn.MultiheadAttention: "
                             "write the attention yourself")

    monkeypatch.setattr(F, "scaled_dot_product_attention", forbidden)
    monkeypatch.setattr(F, "multi_head_attention_forward", forbidden)


def random_state(device: str, dtype: torch.dtype = torch.float32, d: int = D,
                 ff: int = FF) -> dict[str, torch.Tensor]:
    sd = {}
    for name, shape in state_shapes(d, ff).items():
        if name.startswith("norm"):
            sd[name] = 1.0 + 0.2 * torch.randn(shape)
        else:
            sd[name] = torch.randn(shape) / math.sqrt(shape[1])
    return {k: v.to(device=device, dtype=dtype) for k, v in sd.items()}


def make_block(candidate, device: str, dtype: torch.dtype = torch.float32):
    block = candidate.DecoderBlock(D, H, FF)
    block = block.to(device=device, dtype=dtype)
    block.load_state_dict(random_state(device, dtype), strict=True)
    return block


def reference(sd: dict[str, torch.Tensor], x: torch.Tensor, eps: float = EPS) -> torch.Tensor:
    """The block written out from the contract, in float32."""
    sd = {k: v.float() for k, v in sd.items()}
    x = x.float()
    B, S, _ = x.shape
    dh = D // H

    def rms(t, w):
        return t / torch.sqrt(t.pow(2).mean(-1, keepdim=True) + eps) * w

    h = rms(x, sd["norm1.weight"])
    q, k, v = (h @ sd["qkv.weight"].T).split(D, dim=-1)
    q, k, v = (t.reshape(B, S, H, dh).permute(0, 2, 1, 3) for t in (q, k, v))
    scores = q @ k.transpose(-1, -2) / math.sqrt(dh)
    causal = torch.tril(torch.ones(S, S, dtype=torch.bool, device=x.device))
    scores = torch.where(causal, scores, torch.full_like(scores, float("-inf")))
    a = (torch.softmax(scores, -1) @ v).permute(0, 2, 1, 3).reshape(B, S, D)
    x = x + a @ sd["proj.weight"].T
    h = rms(x, sd["norm2.weight"])
    m = (F.silu(h @ sd["w_gate.weight"].T) * (h @ sd["w_up.weight"].T)) @ sd["w_down.weight"].T
    return x + m


def test_state_dict_contract(no_sdpa, candidate, device):
    block = candidate.DecoderBlock(D, H, FF).to(device)
    got = {k: tuple(v.shape) for k, v in block.state_dict().items()}
    assert got == KEYS, f"state_dict keys/shapes must be exactly {KEYS}, got {got}"
    for name in ("norm1.weight", "norm2.weight"):
        assert torch.equal(block.state_dict()[name], torch.ones(D, device=device)), \
            f"{name} must be initialised to ones"


def test_bad_heads_raise(candidate):
    with pytest.raises(ValueError):
        candidate.DecoderBlock(30, 4, 64)


@pytest.mark.parametrize("shape", [(2, 7), (1, 1), (3, 16)])
def test_shape_dtype_finite(no_sdpa, candidate, device, seed, shape):
    block = make_block(candidate, device)
    x = torch.randn(*shape, D, device=device)
    x0 = x.clone()
    out = block(x)
    assert out.shape == x.shape, f"output shape {tuple(out.shape)} != input shape {tuple(x.shape)}"
    assert out.dtype == x.dtype, f"output dtype {out.dtype} != input dtype {x.dtype}"
    assert torch.isfinite(out).all(), "output contains NaN/inf (mask with -inf only before softmax?)"
    assert torch.equal(x, x0), "forward must not modify its input"


def test_matches_reference(no_sdpa, candidate, device, seed):
    block = make_block(candidate, device)
    x = torch.randn(2, 11, D, device=device)
    with torch.no_grad():
        out = block(x)
    ref = reference(block.state_dict(), x)
    torch.testing.assert_close(out, ref, rtol=1e-4, atol=1e-4, msg=lambda m: (
        "output differs from the reference block built from the same state_dict "
        "(check the q/k/v split order, head layout, 1/sqrt(Dh) scale, RMSNorm, SwiGLU):\n" + m))


def test_matches_reference_bf16(no_sdpa, candidate, device, seed):
    if device != "cuda":
        pytest.skip("bfloat16 case runs on cuda only")
    block = make_block(candidate, device, torch.bfloat16)
    x = torch.randn(2, 11, D, device=device, dtype=torch.bfloat16)
    with torch.no_grad():
        out = block(x)
    assert out.dtype == torch.bfloat16, f"bf16 input must give bf16 output, got {out.dtype}"
    ref = reference(block.state_dict(), x)
    torch.testing.assert_close(out.float(), ref, rtol=5e-2, atol=5e-2,
                               msg=lambda m: "bf16 output too far from the float32 reference:\n" + m)


def test_causal_no_leak(no_sdpa, candidate, device, seed):
    block = make_block(candidate, device)
    S = 9
    x = torch.randn(2, S, D, device=device)
    with torch.no_grad():
        out = block(x)
        for t in (1, 4, S - 1):
            x2 = x.clone()
            x2[:, t:] = torch.randn(2, S - t, D, device=device) * 3
            out2 = block(x2)
            torch.testing.assert_close(out2[:, :t], out[:, :t], msg=lambda m: (
                f"changing tokens at positions >= {t} changed outputs at positions < {t}: "
                "the future is leaking (mask scores with j > i before the softmax)\n" + m))


def test_causal_gradients(no_sdpa, candidate, device, seed):
    block = make_block(candidate, device)
    S = 8
    for t in (0, 3, S - 2):
        x = torch.randn(2, S, D, device=device, requires_grad=True)
        block(x)[:, t].sum().backward()
        g = x.grad
        assert torch.count_nonzero(g[:, t + 1:]) == 0, \
            f"output at position {t} has a nonzero gradient w.r.t. future positions > {t}"
        if t > 0:
            assert g[:, :t].abs().sum() > 0, \
                f"output at position {t} does not depend on earlier positions < {t}: attention is broken"


def test_gradients_reach_all_parameters(no_sdpa, candidate, device, seed):
    block = make_block(candidate, device)
    x = torch.randn(2, 6, D, device=device, requires_grad=True)
    block(x).pow(2).mean().backward()
    for name, p in block.named_parameters():
        assert p.grad is not None, f"parameter {name} received no gradient"
        assert torch.isfinite(p.grad).all(), f"gradient of {name} has NaN/inf"
        assert p.grad.abs().sum() > 0, f"gradient of {name} is identically zero"
    assert x.grad is not None and torch.isfinite(x.grad).all(), "input gradient missing or not finite"


BENCH_D, BENCH_H, BENCH_FF = 256, 8, 1024


def bench_inputs(device):
    """A seeded state_dict and input, for both cases below."""
    torch.manual_seed(0)
    return random_state(device, d=BENCH_D, ff=BENCH_FF), torch.randn(4, 128, BENCH_D, device=device)


def benchmark_case(module, device):
    sd, x = bench_inputs(device)
    block = module.DecoderBlock(BENCH_D, BENCH_H, BENCH_FF).to(device)
    block.load_state_dict(sd, strict=True)

    def run():
        with torch.no_grad():
            return block(x)

    return run


def builtin_case(device):
    """The same block from torch built-ins: F.rms_norm, F.linear, causal SDPA and F.silu."""
    sd, x = bench_inputs(device)
    B, S, d = x.shape

    def heads(t):
        return t.view(B, S, BENCH_H, d // BENCH_H).transpose(1, 2)

    def run():
        h = F.rms_norm(x, (d,), sd["norm1.weight"], EPS)
        q, k, v = (heads(t) for t in F.linear(h, sd["qkv.weight"]).split(d, dim=-1))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(B, S, d)
        y = x + F.linear(a, sd["proj.weight"])
        h = F.rms_norm(y, (d,), sd["norm2.weight"], EPS)
        return y + F.linear(F.silu(F.linear(h, sd["w_gate.weight"])) * F.linear(h, sd["w_up.weight"]),
                            sd["w_down.weight"])

    return run
