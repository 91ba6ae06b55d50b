"""Hidden tests for the dpo-loss drill."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

DTYPES = [torch.float32, pytest.param(torch.bfloat16, id="bf16")]


def tol(dtype):
    return {} if dtype == torch.float32 else {"rtol": 2e-2, "atol": 2e-2}


def call(candidate, pc, pr, rc, rr, beta):
    before = [t.detach().clone() for t in (pc, pr, rc, rr)]
    out = candidate.dpo_loss(pc, pr, rc, rr, beta)
    for t, b in zip((pc, pr, rc, rr), before):
        assert torch.equal(t.detach(), b), "dpo_loss must not modify its inputs"
    assert isinstance(out, tuple) and len(out) == 3, "return (loss, chosen_rewards, rejected_rewards)"
    return out


def test_hand_computed(candidate, device):
    t = lambda v: torch.tensor(v, device=device)
    pc, pr = t([-1.0, -3.0, -5.0]), t([-2.0, -1.0, -5.0])
    rc, rr = t([-1.5, -2.0, -4.0]), t([-1.5, -2.0, -4.0])
    loss, cr, rj = call(candidate, pc, pr, rc, rr, 0.5)
    # logits = 0.5 * ((pc - pr) - (rc - rr)) = [0.5, -1.0, 0.0]
    want = (math.log1p(math.exp(-0.5)) + math.log1p(math.exp(1.0)) + math.log(2.0)) / 3
    assert loss.dim() == 0, f"loss must be a 0-dim tensor, got shape {tuple(loss.shape)}"
    torch.testing.assert_close(loss, torch.tensor(want, device=device), msg=lambda m: (
        f"logits [0.5, -1, 0] should give mean(-log sigmoid) = {want:.6f}:\n" + m))
    torch.testing.assert_close(cr, t([0.25, -0.5, -0.5]), msg=lambda m: "chosen_rewards = beta * (pi_c - ref_c):\n" + m)
    torch.testing.assert_close(rj, t([-0.25, 0.5, -0.5]), msg=lambda m: "rejected_rewards = beta * (pi_r - ref_r):\n" + m)


@pytest.mark.parametrize("dtype", DTYPES)
def test_matches_formula(candidate, device, seed, dtype):
    g = torch.Generator().manual_seed(seed)
    B, beta = [1, 16, int(torch.randint(2, 64, (), generator=g))][seed], [0.1, 0.5, 2.0][seed]
    pc, pr, rc, rr = ((-10 * torch.rand(B, generator=g)).to(device=device, dtype=dtype) for _ in range(4))
    loss, cr, rj = call(candidate, pc, pr, rc, rr, beta)
    d = lambda x: x.double()
    logits = beta * ((d(pc) - d(pr)) - (d(rc) - d(rr)))
    want = -F.logsigmoid(logits).mean()
    assert loss.dtype == dtype and cr.dtype == dtype and rj.dtype == dtype, (
        f"outputs must keep the input dtype {dtype}: got loss {loss.dtype}, rewards {cr.dtype} / {rj.dtype}")
    assert loss.dim() == 0, f"loss must be a 0-dim tensor, got shape {tuple(loss.shape)}"
    assert cr.shape == (B,) and rj.shape == (B,), f"rewards must have shape ({B},)"
    torch.testing.assert_close(loss, want.to(dtype), **tol(dtype), msg=lambda m: "loss differs from the formula:\n" + m)
    torch.testing.assert_close(cr, (beta * (d(pc) - d(rc))).to(dtype), **tol(dtype),
                               msg=lambda m: "chosen_rewards differ:\n" + m)
    torch.testing.assert_close(rj, (beta * (d(pr) - d(rr))).to(dtype), **tol(dtype),
                               msg=lambda m: "rejected_rewards differ:\n" + m)


@pytest.mark.parametrize("sign", [-1.0, 1.0])
def test_large_margins_stable(candidate, device, sign):
    B = 4
    pc = torch.full((B,), -1.0, device=device) + sign * 1000.0
    pc.requires_grad_(True)
    pr = torch.full((B,), -1.0, device=device, requires_grad=True)
    rc, rr = torch.full((B,), -1.0, device=device), torch.full((B,), -1.0, device=device)
    loss, _, _ = call(candidate, pc, pr, rc, rr, 1.0)  # logits = sign * 1000
    assert torch.isfinite(loss), f"logits = {sign * 1000:+.0f} gave loss {loss.item()}: use F.logsigmoid"
    want = 1000.0 if sign < 0 else 0.0
    torch.testing.assert_close(loss.detach(), torch.tensor(want, device=device), msg=lambda m: (
        f"-log sigmoid({sign * 1000:+.0f}) must be {want}:\n" + m))
    loss.backward()
    assert torch.isfinite(pc.grad).all() and torch.isfinite(pr.grad).all(), "gradients must be finite at large margins"
    g = -1.0 / B if sign < 0 else 0.0
    torch.testing.assert_close(pc.grad, torch.full((B,), g, device=device), msg=lambda m: (
        f"dloss/dpi_chosen = -beta * sigmoid(-logits) / B = {g}:\n" + m))


def test_gradients(candidate, device, seed):
    B, beta = 8, 0.3
    pc, pr = (-5 * torch.rand(B, device=device)).requires_grad_(), (-5 * torch.rand(B, device=device)).requires_grad_()
    rc, rr = -5 * torch.rand(B, device=device), -5 * torch.rand(B, device=device)
    loss, cr, rj = call(candidate, pc, pr, rc, rr, beta)
    assert loss.requires_grad, "loss must be differentiable w.r.t. the policy log-probs"
    assert not cr.requires_grad and not rj.requires_grad, "rewards must be detached"
    loss.backward()
    assert (pc.grad < 0).all(), "raising a chosen log-prob must lower the loss (negative gradient)"
    assert (pr.grad > 0).all(), "raising a rejected log-prob must raise the loss (positive gradient)"
    logits = beta * ((pc - pr) - (rc - rr)).detach()
    want = -beta * torch.sigmoid(-logits) / B
    torch.testing.assert_close(pc.grad, want, msg=lambda m: "dloss/dpi_chosen must be -beta*sigmoid(-logits)/B:\n" + m)
    torch.testing.assert_close(pr.grad, -want, msg=lambda m: "dloss/dpi_rejected must be +beta*sigmoid(-logits)/B:\n" + m)


def test_gradient_when_policy_equals_reference(candidate, device, seed):
    """The first DPO step: the policy starts as the reference, so every logit is exactly 0."""
    B, beta = [1, 5, 12][seed], [0.1, 0.5, 1.0][seed]
    logps = -5 * torch.rand(2, B, device=device)
    pc, pr = logps[0].clone().requires_grad_(), logps[1].clone().requires_grad_()
    loss, cr, rj = call(candidate, pc, pr, logps[0].clone(), logps[1].clone(), beta)
    torch.testing.assert_close(loss.detach(), torch.tensor(math.log(2.0), device=device), msg=lambda m: (
        "with policy == reference every logit is 0 and the loss is log 2:\n" + m))
    torch.testing.assert_close(cr, torch.zeros(B, device=device), msg=lambda m: "rewards must be 0 when policy == reference:\n" + m)
    loss.backward()
    want = torch.full((B,), -beta * 0.5 / B, device=device)
    torch.testing.assert_close(pc.grad, want, msg=lambda m: (
        "at logits == 0 (policy == reference, the first training step) dloss/dpi_chosen must be "
        "-beta * sigmoid(0) / B = -beta / (2B); a hand-written relu/abs/clamp softplus gets the wrong subgradient there:\n" + m))
    torch.testing.assert_close(pr.grad, -want, msg=lambda m: "at logits == 0 dloss/dpi_rejected must be +beta / (2B):\n" + m)


def benchmark_case(module, device):
    torch.manual_seed(0)
    xs = [-100 * torch.rand(1 << 16, device=device) for _ in range(4)]
    return lambda: module.dpo_loss(*xs, 0.1)
