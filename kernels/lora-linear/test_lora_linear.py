"""Hidden tests for the lora-linear drill (LoRA forward, freezing and merge)."""

from __future__ import annotations

import pytest
import torch
import torch.nn as nn

IN, OUT, R, ALPHA = 24, 20, 4, 8.0
# (in_features, out_features, r, alpha): alpha / r is never an integer division, r = 1 and r > in occur
CONFIGS = [
    pytest.param((IN, OUT, R, ALPHA), id="in24-out20-r4-a8"),
    pytest.param((16, 5, 8, 3.0), id="in16-out5-r8-a3"),
    pytest.param((7, 13, 1, 0.5), id="in7-out13-r1-a0.5"),
    pytest.param((9, 9, 12, 16), id="in9-out9-r12-a16int"),
]
DTYPES = [torch.float32, pytest.param(torch.float64, id="f64"), pytest.param(torch.bfloat16, id="bf16")]


def tol(dtype):
    return {"rtol": 3e-2, "atol": 3e-2} if dtype == torch.bfloat16 else {}


def make(candidate, device, dtype=torch.float32, bias=True, train_b=False, cfg=(IN, OUT, R, ALPHA)):
    fan_in, fan_out, r, alpha = cfg
    base = nn.Linear(fan_in, fan_out, bias=bias).to(device=device, dtype=dtype)
    lora = candidate.LoRALinear(base, r, alpha)
    if train_b:
        with torch.no_grad():
            lora.lora_B.copy_(torch.randn(fan_out, r, device=device, dtype=dtype) * 0.5)
    return base, lora


def formula(base, lora, x, scaling):
    """float64 reference: x W^T + b + (alpha / r) x A^T B^T."""
    x, w = x.double(), base.weight.double()
    a, b = lora.lora_A.double(), lora.lora_B.double()
    y = x @ w.T + scaling * (x @ a.T) @ b.T
    return y + base.bias.double() if base.bias is not None else y


def storages(*tensors):
    return {t.untyped_storage().data_ptr() for t in tensors if t is not None}


@pytest.mark.parametrize("cfg", CONFIGS)
@pytest.mark.parametrize("bias", [True, False])
def test_structure_and_freezing(candidate, device, bias, cfg):
    fan_in, fan_out, r, alpha = cfg
    for dtype in (torch.float32, torch.float64):
        base, lora = make(candidate, device, dtype, bias=bias, cfg=cfg)
        assert lora.base is base, "self.base must be the nn.Linear passed in (same object)"
        assert tuple(lora.lora_A.shape) == (r, fan_in), \
            f"lora_A must be (r, in) = {(r, fan_in)}, got {tuple(lora.lora_A.shape)}"
        assert tuple(lora.lora_B.shape) == (fan_out, r), \
            f"lora_B must be (out, r) = {(fan_out, r)}, got {tuple(lora.lora_B.shape)}"
        assert torch.count_nonzero(lora.lora_B) == 0, "lora_B must be initialised to zeros"
        assert torch.count_nonzero(lora.lora_A) > 0, "lora_A must be randomly initialised (not zeros)"
        for name in ("lora_A", "lora_B"):
            t = getattr(lora, name)
            assert isinstance(t, nn.Parameter), f"{name} must be an nn.Parameter"
            assert t.device == base.weight.device and t.dtype == base.weight.dtype, \
                f"{name} must be created with base.weight's device and dtype ({dtype}), got {t.dtype}"
        assert isinstance(lora.scaling, float) and lora.scaling == alpha / r, \
            f"r={r}, alpha={alpha}: scaling must be the float alpha / r = {alpha / r}, got {lora.scaling!r}"
        trainable = {n for n, p in lora.named_parameters() if p.requires_grad}
        assert trainable == {"lora_A", "lora_B"}, f"only lora_A and lora_B may require grad, got {sorted(trainable)}"


@pytest.mark.parametrize("dtype", DTYPES)
def test_zero_init_equals_base(candidate, device, seed, dtype):
    base, lora = make(candidate, device, dtype)
    x = torch.randn(2, 3, IN, device=device, dtype=dtype)
    x0 = x.clone()
    with torch.no_grad():
        out, want = lora(x), base(x)
    assert out.shape == (2, 3, OUT) and out.dtype == dtype, f"output must be (2, 3, {OUT}) {dtype}, got {tuple(out.shape)} {out.dtype}"
    torch.testing.assert_close(out, want, msg=lambda m: "with B = 0 the LoRA layer must compute exactly base(x):\n" + m)
    assert torch.equal(x, x0), "forward must not modify its input"


@pytest.mark.parametrize("cfg", CONFIGS)
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("dtype", DTYPES)
def test_forward_formula(candidate, device, bias, dtype, cfg):
    fan_in, fan_out, r, alpha = cfg
    torch.manual_seed(fan_in + 100 * r)
    base, lora = make(candidate, device, dtype, bias=bias, train_b=True, cfg=cfg)
    for shape in ((5, fan_in), (2, 1, 3, fan_in), (fan_in,)):
        x = torch.randn(*shape, device=device, dtype=dtype)
        with torch.no_grad():
            out = lora(x)
        assert out.shape == (*shape[:-1], fan_out) and out.dtype == dtype, \
            f"x {shape} {dtype} must give {(*shape[:-1], fan_out)} {dtype}, got {tuple(out.shape)} {out.dtype}"
        torch.testing.assert_close(out, formula(base, lora, x, alpha / r).to(dtype), **tol(dtype), msg=lambda m: (
            f"r={r}, alpha={alpha}, x {shape}: forward must be base(x) + (alpha / r) * x @ A.T @ B.T:\n" + m))


@pytest.mark.parametrize("cfg", CONFIGS)
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("dtype", DTYPES)
def test_merge_equivalence(candidate, device, bias, dtype, cfg):
    fan_in, fan_out, r, alpha = cfg
    torch.manual_seed(fan_in + 100 * r)
    base, lora = make(candidate, device, dtype, bias=bias, train_b=True, cfg=cfg)
    params_before = dict(lora.named_parameters())
    snapshot = {k: v.clone() for k, v in lora.state_dict().items()}
    x = torch.randn(3, 7, fan_in, device=device, dtype=dtype)
    with torch.no_grad():
        before = lora(x)
        merged = lora.merge()
        assert type(merged) is nn.Linear, f"merge() must return a plain nn.Linear, got {type(merged).__name__}"
        assert merged is not base, "merge() must return a new module, not the base"
        assert (merged.in_features, merged.out_features) == (fan_in, fan_out), "merged layer has the base's sizes"
        assert (merged.bias is None) == (not bias), "merged layer must have a bias iff the base has one"
        assert merged.weight.dtype == dtype and merged.weight.device == base.weight.device, \
            "merged layer must be on the base's device and dtype"
        if bias:
            assert merged.bias.dtype == dtype and merged.bias.device == base.weight.device, \
                "merged bias must be on the base's device and dtype"
        assert lora.base is base and dict(lora.named_parameters()).keys() == params_before.keys() and all(
            p is params_before[n] for n, p in lora.named_parameters()), \
            "merge() must not replace the LoRA layer's (or its base's) parameters"
        for k, v in lora.state_dict().items():
            assert torch.equal(v, snapshot[k]), f"merge() must not modify {k} (it must stay bit-identical)"
        mine = storages(base.weight, base.bias, lora.lora_A, lora.lora_B)
        shared = storages(merged.weight, merged.bias) & mine
        assert not shared, ("the merged layer's weight/bias must not share storage with the base or the adapters "
                            "(copy them: the merged layer is independent of the LoRA layer)")
        torch.testing.assert_close(merged(x), before, **tol(dtype), msg=lambda m: (
            f"r={r}, alpha={alpha}: merged layer output differs from the LoRA layer "
            "(weight must be W + (alpha / r) * B @ A):\n" + m))
        torch.testing.assert_close(lora(x), before, msg=lambda m: "LoRA output changed after merge():\n" + m)
        merged_out = merged(x)
        # the two layers are independent: editing one never changes the other
        merged.weight.add_(1.0)
        if merged.bias is not None:
            merged.bias.add_(1.0)
        for k, v in lora.state_dict().items():
            assert torch.equal(v, snapshot[k]), f"editing the merged layer's parameters changed the LoRA layer's {k}"
        torch.testing.assert_close(lora(x), before, msg=lambda m: "editing the merged layer changed the LoRA layer:\n" + m)
        merged.weight.sub_(1.0)
        if merged.bias is not None:
            merged.bias.sub_(1.0)
        lora.lora_B.mul_(-2.0)
        base.weight.mul_(0.5)
        torch.testing.assert_close(merged(x), merged_out, **tol(dtype), msg=lambda m: (
            "changing the LoRA layer (B, base weight) after merge() changed the merged layer: "
            "it must hold its own copy:\n" + m))


def test_gradients_only_for_adapters(candidate, device, seed):
    base, lora = make(candidate, device)
    x = torch.randn(4, IN, device=device)
    lora(x).pow(2).sum().backward()
    assert base.weight.grad is None and base.bias.grad is None, "the frozen base must not receive gradients"
    assert lora.lora_B.grad is not None and lora.lora_B.grad.abs().sum() > 0, "lora_B must receive a nonzero gradient"
    assert lora.lora_A.grad is not None, "lora_A must receive a gradient"
    assert torch.count_nonzero(lora.lora_A.grad) == 0, \
        "at init (B = 0) dL/dA = scaling * B^T (...) must be exactly zero"
    with torch.no_grad():
        lora.lora_B.normal_()
    lora.zero_grad()
    lora(x).pow(2).sum().backward()
    assert lora.lora_A.grad.abs().sum() > 0, "once B != 0, lora_A must receive a nonzero gradient"


@pytest.mark.parametrize("r", [0, -1, -4])
def test_invalid_rank(candidate, r):
    with pytest.raises(ValueError):
        candidate.LoRALinear(nn.Linear(4, 4), r, 1.0)


def benchmark_case(module, device):
    torch.manual_seed(0)
    lora = module.LoRALinear(nn.Linear(1024, 1024).to(device), 16, 32.0)
    x = torch.randn(512, 1024, device=device)

    def run():
        with torch.no_grad():
            return lora(x)

    return run
