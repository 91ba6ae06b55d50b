"""Hidden tests for the decoder-block drill (pre-norm causal decoder block)."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

D, H, FF = 32, 4, 64
EPS = 1e-5

# (d_model, n_heads, d_ff, eps): eps None means "leave the default (1e-5)".
CONFIGS = [
    pytest.param((D, H, FF, None), id="d32-h4-ff64-default_eps"),
    pytest.param((24, 3, 40, 0.25), id="d24-h3-ff40-eps0.25"),
    pytest.param((15, 5, 7, 1e-3), id="d15-h5-ff7-eps1e-3"),
    pytest.param((16, 1, 48, 0.5), id="d16-h1-ff48-eps0.5"),
]
BANNED = ("attention", "sdp", "_transformer_encoder")  # torch functions/ops with these in their name are fused attention


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


class _FunctionLog(TorchFunctionMode):
    """Records the name of every torch function called (torch.*, torch._C.*, torch.ops.*)."""

    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.names.append(f"{getattr(func, '__module__', '') or ''}.{getattr(func, '__name__', func)}")
        return func(*args, **(kwargs or {}))


class _OpLog(TorchDispatchMode):
    """Records every aten op that reaches the dispatcher."""

    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.names.append(str(func))
        return func(*args, **(kwargs or {}))


def forward(block, x: torch.Tensor) -> torch.Tensor:
    """block(x), failing if any fused attention kernel is reached, by whatever name or path."""
    funcs, ops = _FunctionLog(), _OpLog()
    with funcs, ops:
        out = block(x)
    fused = sorted({n for n in funcs.names + ops.names if any(b in n.lower() for b in BANNED)})
    assert not fused, (f"the forward reached a fused attention ({', '.join(fused)}): F.scaled_dot_product_attention, "
                       "nn.MultiheadAttention and their torch._C / torch.ops / flex variants are all banned; "
                       "write q @ k^T, the causal mask, the softmax and @ v yourself")
    return out


def random_state(device: str, dtype: torch.dtype = torch.float32, d: int = D,
                 ff: int = FF) -> dict[str, torch.Tensor]:
    sd = {}
    for name, shape in state_shapes(d, ff).items():
        if name.startswith("norm"):
            sd[name] = 1.0 + 0.2 * torch.randn(shape)
        else:
            sd[name] = torch.randn(shape) / math.sqrt(shape[1])
    return {k: v.to(device=device, dtype=dtype) for k, v in sd.items()}


def build(candidate, cfg, device: str, dtype: torch.dtype = torch.float32):
    d, h, ff, eps = cfg
    block = candidate.DecoderBlock(d, h, ff) if eps is None else candidate.DecoderBlock(d, h, ff, eps)
    block = block.to(device=device, dtype=dtype)
    block.load_state_dict(random_state(device, dtype, d, ff), strict=True)
    return block


def make_block(candidate, device: str, dtype: torch.dtype = torch.float32):
    return build(candidate, (D, H, FF, None), device, dtype)


def reference(sd: dict[str, torch.Tensor], x: torch.Tensor, eps: float | None = EPS,
              n_heads: int = H) -> torch.Tensor:
    """The block written out from the contract, in float32 (float64 for a float64 x)."""
    eps = EPS if eps is None else eps
    ct = torch.float64 if x.dtype == torch.float64 else torch.float32
    sd = {k: v.to(ct) for k, v in sd.items()}
    x = x.to(ct)
    B, S, d = x.shape
    dh = d // n_heads

    def rms(t, w):
        return t / torch.sqrt(t.pow(2).mean(-1, keepdim=True) + eps) * w

    h = rms(x, sd["norm1.weight"])
    q, k, v = (h @ sd["qkv.weight"].T).split(d, dim=-1)
    q, k, v = (t.reshape(B, S, n_heads, dh).permute(0, 2, 1, 3) for t in (q, k, v))
    scores = q @ k.transpose(-1, -2) / math.sqrt(dh)
    causal = torch.tril(torch.ones(S, S, dtype=torch.bool, device=x.device))
    scores = torch.where(causal, scores, torch.full_like(scores, float("-inf")))
    a = (torch.softmax(scores, -1) @ v).permute(0, 2, 1, 3).reshape(B, S, d)
    x = x + a @ sd["proj.weight"].T
    h = rms(x, sd["norm2.weight"])
    m = (F.silu(h @ sd["w_gate.weight"].T) * (h @ sd["w_up.weight"].T)) @ sd["w_down.weight"].T
    return x + m


def draw_bs(seed: int, salt: int = 0) -> tuple[int, int]:
    g = torch.Generator().manual_seed(1000 * seed + salt)
    return int(torch.randint(1, 4, (), generator=g)), int(torch.randint(1, 14, (), generator=g))


@pytest.mark.parametrize("cfg", CONFIGS)
def test_state_dict_contract(no_sdpa, candidate, device, cfg):
    d, h, ff, eps = cfg
    block = (candidate.DecoderBlock(d, h, ff) if eps is None else candidate.DecoderBlock(d, h, ff, eps)).to(device)
    want = state_shapes(d, ff)
    got = {k: tuple(v.shape) for k, v in block.state_dict().items()}
    assert got == want, f"DecoderBlock{(d, h, ff)}: state_dict keys/shapes must be exactly {want}, got {got}"
    for name in ("norm1.weight", "norm2.weight"):
        assert torch.equal(block.state_dict()[name], torch.ones(d, device=device)), \
            f"{name} must be initialised to ones"


@pytest.mark.parametrize("d, h", [(30, 4), (12, 5), (7, 2), (8, 3)])
def test_bad_heads_raise(candidate, d, h):
    with pytest.raises(ValueError):
        candidate.DecoderBlock(d, h, 64)


@pytest.mark.parametrize("shape", [(2, 7), (1, 1), (3, 16)])
def test_shape_dtype_finite(no_sdpa, candidate, device, shape):
    block = make_block(candidate, device)
    x = torch.randn(*shape, D, device=device)
    x0 = x.clone()
    out = forward(block, x)
    assert out.shape == x.shape, f"output shape {tuple(out.shape)} != input shape {tuple(x.shape)}"
    assert out.dtype == x.dtype, f"output dtype {out.dtype} != input dtype {x.dtype}"
    assert torch.isfinite(out).all(), "output contains NaN/inf (mask with -inf only before softmax?)"
    assert torch.equal(x, x0), "forward must not modify its input"


@pytest.mark.parametrize("cfg", CONFIGS)
def test_matches_reference(no_sdpa, candidate, device, seed, cfg):
    block = build(candidate, cfg, device)
    B, S = draw_bs(seed)
    x = torch.randn(B, S, cfg[0], device=device)
    with torch.no_grad():
        out = forward(block, x)
    ref = reference(block.state_dict(), x, cfg[3], cfg[1])
    torch.testing.assert_close(out, ref, rtol=1e-4, atol=1e-4, msg=lambda m: (
        f"DecoderBlock(d_model, n_heads, d_ff, eps) = {cfg}, x {(B, S, cfg[0])}: output differs from the "
        "reference block built from the same state_dict (check n_heads / head layout, the q/k/v split order, "
        "the 1/sqrt(Dh) scale, RMSNorm with eps inside the sqrt, SwiGLU):\n" + m))


@pytest.mark.parametrize("scale", [1e-2, 30.0])
def test_default_eps_small_and_large_inputs(no_sdpa, candidate, device, seed, scale):
    """At |x| ~ 0.01 the default eps = 1e-5 moves RMSNorm by ~5%: it must be eps, not another default."""
    block = make_block(candidate, device)
    x = torch.randn(2, 9, D, device=device) * scale
    with torch.no_grad():
        out = forward(block, x)
    ref = reference(block.state_dict(), x)
    torch.testing.assert_close(out, ref, rtol=1e-4, atol=1e-4 * scale, msg=lambda m: (
        f"inputs scaled by {scale}: output differs from the reference (RMSNorm must use the eps argument, "
        "default 1e-5, inside the sqrt: x / sqrt(mean(x**2) + eps) * weight):\n" + m))


@pytest.mark.parametrize("dtype", [torch.float64, torch.bfloat16], ids=["f64", "bf16"])
def test_matches_reference_other_dtypes(no_sdpa, candidate, device, seed, dtype):
    cfg = (24, 3, 40, 0.25)
    block = build(candidate, cfg, device, dtype)
    x = torch.randn(2, 11, 24, device=device, dtype=dtype)
    x0 = x.clone()
    with torch.no_grad():
        out = forward(block, x)
    assert out.dtype == dtype, f"{dtype} input must give a {dtype} output, got {out.dtype}"
    assert torch.equal(x, x0), "forward must not modify its input"
    ref = reference(block.state_dict(), x, cfg[3], cfg[1])
    # float32 tolerances for float64 too: upcasting the softmax to float32 (Llama style) is allowed
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == torch.float64 else dict(rtol=5e-2, atol=5e-2)
    torch.testing.assert_close(out.to(ref.dtype), ref, **tol, msg=lambda m: (
        f"{dtype} output too far from the reference computed in "
        f"{'float64' if dtype == torch.float64 else 'float32'}:\n" + m))


@pytest.mark.parametrize("cfg", CONFIGS[1:2])
def test_causal_no_leak(no_sdpa, candidate, device, seed, cfg):
    block = build(candidate, cfg, device)
    S, d = 9, cfg[0]
    x = torch.randn(2, S, d, device=device)
    with torch.no_grad():
        out = forward(block, x)
        for t in (1, 4, S - 1):
            x2 = x.clone()
            x2[:, t:] = torch.randn(2, S - t, d, device=device) * 3
            out2 = forward(block, x2)
            torch.testing.assert_close(out2[:, :t], out[:, :t], msg=lambda m: (
                f"changing tokens at positions >= {t} changed outputs at positions < {t}: "
                "the future is leaking (mask scores with j > i before the softmax)\n" + m))


def test_causal_gradients(no_sdpa, candidate, device, seed):
    block = make_block(candidate, device)
    S = 8
    for t in (0, 3, S - 2):
        x = torch.randn(2, S, D, device=device, requires_grad=True)
        forward(block, x)[:, t].sum().backward()
        g = x.grad
        assert torch.count_nonzero(g[:, t + 1:]) == 0, \
            f"output at position {t} has a nonzero gradient w.r.t. future positions > {t}"
        if t > 0:
            assert g[:, :t].abs().sum() > 0, \
                f"output at position {t} does not depend on earlier positions < {t}: attention is broken"


@pytest.mark.parametrize("cfg", CONFIGS[1:2])
def test_gradients_reach_all_parameters(no_sdpa, candidate, device, seed, cfg):
    block = build(candidate, cfg, device)
    x = torch.randn(2, 6, cfg[0], device=device, requires_grad=True)
    forward(block, x).pow(2).mean().backward()
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
