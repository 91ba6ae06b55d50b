"""Hidden tests for the lora-linear drill (LoRA forward, freezing and merge)."""

from __future__ import annotations

import pytest
import torch
import torch.nn as nn

IN, OUT, R, ALPHA = 24, 20, 4, 8.0
DTYPES = [torch.float32, pytest.param(torch.bfloat16, id="bf16")]


def tol(dtype):
    return {} if dtype == torch.float32 else {"rtol": 3e-2, "atol": 3e-2}


def skip_bf16_on_cpu(device, dtype):
    if dtype == torch.bfloat16 and device != "cuda":
        pytest.skip("bfloat16 cases run on cuda only")


def make(candidate, device, dtype=torch.float32, bias=True, train_b=False):
    base = nn.Linear(IN, OUT, bias=bias).to(device=device, dtype=dtype)
    lora = candidate.LoRALinear(base, R, ALPHA)
    if train_b:
        with torch.no_grad():
            lora.lora_B.copy_(torch.randn(OUT, R, device=device, dtype=dtype) * 0.5)
    return base, lora


def formula(base, lora, x):
    """float64 reference: x W^T + b + (alpha / r) x A^T B^T."""
    x, w = x.double(), base.weight.double()
    a, b = lora.lora_A.double(), lora.lora_B.double()
    y = x @ w.T + (ALPHA / R) * (x @ a.T) @ b.T
    return y + base.bias.double() if base.bias is not None else y


@pytest.mark.parametrize("bias", [True, False])
def test_structure_and_freezing(candidate, device, seed, bias):
    base, lora = make(candidate, device, bias=bias)
    assert lora.base is base, "self.base must be the nn.Linear passed in (same object)"
    assert tuple(lora.lora_A.shape) == (R, IN), f"lora_A must be (r, in) = {(R, IN)}, got {tuple(lora.lora_A.shape)}"
    assert tuple(lora.lora_B.shape) == (OUT, R), f"lora_B must be (out, r) = {(OUT, R)}, got {tuple(lora.lora_B.shape)}"
    assert torch.count_nonzero(lora.lora_B) == 0, "lora_B must be initialised to zeros"
    assert torch.count_nonzero(lora.lora_A) > 0, "lora_A must be randomly initialised (not zeros)"
    for name in ("lora_A", "lora_B"):
        t = getattr(lora, name)
        assert isinstance(t, nn.Parameter), f"{name} must be an nn.Parameter"
        assert t.device == base.weight.device and t.dtype == base.weight.dtype, \
            f"{name} must be created with base.weight's device and dtype"
    assert isinstance(lora.scaling, float) and lora.scaling == ALPHA / R, \
        f"scaling must be the float alpha / r = {ALPHA / R}, got {lora.scaling!r}"
    trainable = {n for n, p in lora.named_parameters() if p.requires_grad}
    assert trainable == {"lora_A", "lora_B"}, f"only lora_A and lora_B may require grad, got {sorted(trainable)}"


@pytest.mark.parametrize("dtype", DTYPES)
def test_zero_init_equals_base(candidate, device, seed, dtype):
    skip_bf16_on_cpu(device, dtype)
    base, lora = make(candidate, device, dtype)
    x = torch.randn(2, 3, IN, device=device, dtype=dtype)
    x0 = x.clone()
    with torch.no_grad():
        out, want = lora(x), base(x)
    assert out.shape == (2, 3, OUT) and out.dtype == dtype, f"output must be (2, 3, {OUT}) {dtype}, got {tuple(out.shape)} {out.dtype}"
    torch.testing.assert_close(out, want, msg=lambda m: "with B = 0 the LoRA layer must compute exactly base(x):\n" + m)
    assert torch.equal(x, x0), "forward must not modify its input"


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("dtype", DTYPES)
def test_forward_formula(candidate, device, seed, bias, dtype):
    skip_bf16_on_cpu(device, dtype)
    base, lora = make(candidate, device, dtype, bias=bias, train_b=True)
    x = torch.randn(5, IN, device=device, dtype=dtype)
    with torch.no_grad():
        out = lora(x)
    torch.testing.assert_close(out, formula(base, lora, x).to(dtype), **tol(dtype), msg=lambda m: (
        "forward must be base(x) + (alpha / r) * x @ A.T @ B.T:\n" + m))


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("dtype", DTYPES)
def test_merge_equivalence(candidate, device, seed, bias, dtype):
    skip_bf16_on_cpu(device, dtype)
    base, lora = make(candidate, device, dtype, bias=bias, train_b=True)
    snapshot = {k: v.clone() for k, v in lora.state_dict().items()}
    x = torch.randn(3, 7, IN, device=device, dtype=dtype)
    with torch.no_grad():
        before = lora(x)
        merged = lora.merge()
        assert type(merged) is nn.Linear, f"merge() must return a plain nn.Linear, got {type(merged).__name__}"
        assert merged is not base, "merge() must return a new module, not the base"
        assert (merged.bias is None) == (not bias), "merged layer must have a bias iff the base has one"
        assert merged.weight.dtype == dtype and merged.weight.device == base.weight.device, \
            "merged layer must be on the base's device and dtype"
        assert merged.weight.untyped_storage().data_ptr() != base.weight.untyped_storage().data_ptr(), \
            "merged weight must not share storage with the base weight"
        for k, v in lora.state_dict().items():
            assert torch.equal(v, snapshot[k]), f"merge() must not modify {k}"
        torch.testing.assert_close(merged(x), before, **tol(dtype), msg=lambda m: (
            "merged layer output differs from the LoRA layer (weight must be W + scaling * B @ A):\n" + m))
        torch.testing.assert_close(lora(x), before, msg=lambda m: "LoRA output changed after merge():\n" + m)


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


def test_invalid_rank(candidate):
    with pytest.raises(ValueError):
        candidate.LoRALinear(nn.Linear(4, 4), 0, 1.0)


def benchmark_case(module, device):
    torch.manual_seed(0)
    lora = module.LoRALinear(nn.Linear(1024, 1024).to(device), 16, 32.0)
    x = torch.randn(512, 1024, device=device)

    def run():
        with torch.no_grad():
            return lora(x)

    return run
