"""Hidden tests for the ppo-loss drill."""

from __future__ import annotations

import math

import pytest
import torch

NAMES = ("logprobs", "old_logprobs", "advantages", "returns", "values", "old_values", "entropy")
CONSTANTS = ("old_logprobs", "advantages", "returns", "old_values")
TRAINED = ("logprobs", "values", "entropy")
# (clip_eps, vf_coef, ent_coef, vf_clip), one per seed
SETTINGS = [(0.2, 0.5, 0.01, None), (0.1, 1.3, 0.05, 0.2), (0.3, 0.25, 0.1, 0.05)]


def reference(x: dict, mask, clip_eps, vf_coef, ent_coef, vf_clip):
    """The prompt's formulas in float64 over the selected tokens only (boolean indexing)."""
    s = {k: v.detach().double()[mask] for k, v in x.items() if k not in TRAINED}
    s.update({k: x[k][mask].double() for k in TRAINED})
    ratio = torch.exp(s["logprobs"] - s["old_logprobs"])
    a = s["advantages"]
    pg = -torch.min(ratio * a, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * a)
    vf = (s["values"] - s["returns"]) ** 2
    if vf_clip is not None:
        vc = s["old_values"] + torch.clamp(s["values"] - s["old_values"], -vf_clip, vf_clip)
        vf = torch.max(vf, (vc - s["returns"]) ** 2)
    policy, value, ent = pg.mean(), 0.5 * vf.mean(), s["entropy"].mean()
    return policy + vf_coef * value - ent_coef * ent, policy, value, ent


def make(B, T, gen, device, dtype=torch.float64, empty_row=False):
    """Ragged response spans (a prompt offset, then the response), junk of |x| <= 10 under the mask."""
    r = lambda *s: torch.rand(*s, generator=gen, dtype=torch.float64)
    n = lambda *s: torch.randn(*s, generator=gen, dtype=torch.float64)
    start = torch.randint(0, T, (B,), generator=gen)
    length = torch.stack([torch.randint(1, T - int(s0) + 1, (1,), generator=gen)[0] for s0 in start])
    pos = torch.arange(T)
    mask = (pos >= start[:, None]) & (pos < (start + length)[:, None])
    if empty_row and B > 1:
        mask[int(torch.randint(0, B, (1,), generator=gen))] = False
    if not mask.any():
        mask[0, 0] = True
    old = -3 * r(B, T) - 0.05
    x = {"logprobs": (old + 0.3 * n(B, T)).clamp(max=0.0), "old_logprobs": old, "advantages": n(B, T),
         "returns": n(B, T)}
    x["values"] = x["returns"] + 0.7 * n(B, T)
    x["old_values"] = x["values"] + 0.3 * n(B, T)
    x["entropy"] = 2 * r(B, T)
    for k in x:
        x[k] = torch.where(mask, x[k], 20 * r(B, T) - 10).to(device=device, dtype=dtype)
    return x, mask.to(device)


def call(candidate, x, mask, *args, **kwargs):
    before = {k: v.detach().clone() for k, v in x.items()}
    mask_before = mask.clone()
    out = candidate.ppo_loss(*(x[k] for k in NAMES), mask, *args, **kwargs)
    for k, v in x.items():
        assert torch.equal(v.detach(), before[k]), f"ppo_loss modified its input `{k}`; inputs must not change"
    assert torch.equal(mask, mask_before), "ppo_loss modified the mask"
    assert isinstance(out, tuple) and len(out) == 4, "return (loss, policy_loss, value_loss, entropy_mean)"
    for name, t in zip(("loss", "policy_loss", "value_loss", "entropy_mean"), out):
        assert isinstance(t, torch.Tensor) and t.dim() == 0, f"{name} must be a 0-dim tensor"
        assert t.dtype == x["logprobs"].dtype, f"{name} must keep the input dtype {x['logprobs'].dtype}, got {t.dtype}"
    return out


def check_parts(out, want, what):
    for name, got, w in zip(("loss", "policy_loss", "value_loss", "entropy_mean"), out, want):
        torch.testing.assert_close(got.detach(), w.detach().to(got.dtype), msg=lambda m: f"{name} {what}:\n{m}")


def test_hand_computed(candidate, device):
    t = lambda v: torch.tensor([v], dtype=torch.float32, device=device)
    old = [-1.0, -2.0, -0.5, -3.0, -1.0]
    x = {"logprobs": t([o + d for o, d in zip(old, [math.log(1.5), math.log(0.5), math.log(1.1), math.log(1.5), 5.0])]),
         "old_logprobs": t(old), "advantages": t([1.0, 1.0, -2.0, -1.0, 9.0]),
         "returns": t([0.0, 2.0, 1.0, 1.0, -7.0]), "values": t([1.0, 2.0, 0.0, -1.0, 8.0]),
         "old_values": t([0.5, 2.0, 0.5, 0.0, 3.0]), "entropy": t([1.0, 2.0, 3.0, 2.0, -9.0])}
    mask = torch.tensor([[True, True, True, True, False]], device=device)
    # ratios [1.5, 0.5, 1.1, 1.5], A [1, 1, -2, -1]: pg = [-1.2, -0.5, 2.2, 1.5] -> policy_loss 0.5
    # vf = max([1, 0, 1, 4], [0.49, 0, 0.49, 1.44]) -> value_loss 0.5 * 6 / 4 = 0.75; entropy_mean 2
    loss, pol, val, ent = call(candidate, x, mask, 0.2, 0.5, 0.01, 0.2)
    for name, got, want, why in (
        ("policy_loss", pol, 0.5, "ratios [1.5, 0.5, 1.1, 1.5] and A [1, 1, -2, -1] give pg [-1.2, -0.5, 2.2, 1.5]"),
        ("value_loss", val, 0.75, "0.5 * mean of max(unclipped, clipped) squared errors [1, 0, 1, 4]"),
        ("entropy_mean", ent, 2.0, "the mean of [1, 2, 3, 2]; the last token is masked out"),
        ("loss", loss, 0.5 + 0.5 * 0.75 - 0.01 * 2.0, "policy_loss + vf_coef * value_loss - ent_coef * entropy_mean"),
    ):
        torch.testing.assert_close(got.detach(), torch.tensor(want, device=device), msg=lambda m: f"{name}: {why}:\n{m}")


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_matches_formula(candidate, device, seed, dtype):
    gen = torch.Generator().manual_seed(100 + seed)
    clip_eps, vf_coef, ent_coef, vf_clip = SETTINGS[seed]
    for B, T in [(1, 1), (1, 7), (int(torch.randint(2, 6, (1,), generator=gen)), int(torch.randint(3, 14, (1,), generator=gen))), (5, 9)]:
        x, mask = make(B, T, gen, device, dtype, empty_row=(B == 5))
        out = call(candidate, x, mask, clip_eps=clip_eps, vf_coef=vf_coef, ent_coef=ent_coef, vf_clip=vf_clip)
        want = reference(x, mask, clip_eps, vf_coef, ent_coef, vf_clip)
        check_parts(out, want, f"differs from the formula (B={B}, T={T}, clip_eps={clip_eps}, vf_coef={vf_coef}, "
                               f"ent_coef={ent_coef}, vf_clip={vf_clip}; one token mean over the batch's mask)")


def test_default_arguments(candidate, device):
    gen = torch.Generator().manual_seed(7)
    x, mask = make(3, 8, gen, device)
    out = call(candidate, x, mask)
    check_parts(out, reference(x, mask, 0.2, 0.5, 0.01, None),
                "differs with the default arguments (clip_eps=0.2, vf_coef=0.5, ent_coef=0.01, vf_clip=None)")


def test_value_clip_both_sides(candidate, device):
    """vf_clip: the max of the two squared errors, around old_values, on both sides."""
    t = lambda v: torch.tensor([v], dtype=torch.float64, device=device)
    x = {"logprobs": t([-1.0] * 4), "old_logprobs": t([-1.0] * 4), "advantages": t([0.0] * 4),
         "returns": t([0.0, 0.0, 1.0, 1.0]), "values": t([1.0, 0.5, 0.0, 1.5]),
         "old_values": t([0.0, 1.0, 0.5, 1.0]), "entropy": t([0.0] * 4)}
    mask = torch.ones(1, 4, dtype=torch.bool, device=device)
    # v_clipped = [0.1, 0.9, 0.4, 1.1] -> clipped errors [0.01, 0.81, 0.36, 0.01]; unclipped [1, 0.25, 1, 0.25]
    _, _, val, _ = call(candidate, x, mask, 0.2, 0.5, 0.0, 0.1)
    torch.testing.assert_close(val.detach(), torch.tensor(0.5 * (1 + 0.81 + 1 + 0.25) / 4, dtype=torch.float64, device=device),
                               msg=lambda m: "value_loss with vf_clip=0.1: v_clipped = old_values + clamp(values - old_values, "
                                             "-0.1, 0.1), then 0.5 * mean(max(unclipped, clipped squared error)):\n" + m)


def test_gradients(candidate, device, seed):
    gen = torch.Generator().manual_seed(200 + seed)
    clip_eps, vf_coef, ent_coef, vf_clip = SETTINGS[seed]
    x, mask = make(4, 11, gen, device, empty_row=True)
    for v in x.values():
        v.requires_grad_(True)
    loss, *_ = call(candidate, x, mask, clip_eps, vf_coef, ent_coef, vf_clip)
    assert loss.requires_grad, "loss must be differentiable w.r.t. logprobs, values and entropy"
    loss.backward()
    for k in CONSTANTS:
        g = x[k].grad
        assert g is None or not g.any(), (f"gradient flowed into `{k}`: it is a constant of the rollout, "
                                          "detach it (e.g. exp(logprobs - old_logprobs.detach()))")
    ref = {k: v.detach().clone().requires_grad_(k in TRAINED) for k, v in x.items()}
    reference(ref, mask, clip_eps, vf_coef, ent_coef, vf_clip)[0].backward()
    for k in TRAINED:
        assert x[k].grad is not None, f"loss does not depend on `{k}`"
        torch.testing.assert_close(x[k].grad, ref[k].grad, msg=lambda m: (
            f"d loss / d {k} is wrong (clipped tokens get zero policy gradient; padding gets zero; "
            f"clip_eps={clip_eps}, vf_clip={vf_clip}):\n{m}"))


def test_clipped_tokens_gradient(candidate, device):
    """A > 0 with ratio > 1 + eps and A < 0 with ratio < 1 - eps are clipped (zero gradient); the others are not."""
    ratio = torch.tensor([[1.5, 1.5, 0.5, 0.5]], dtype=torch.float64, device=device)
    adv = torch.tensor([[1.0, -1.0, 1.0, -1.0]], dtype=torch.float64, device=device)
    old = torch.full_like(ratio, -2.0)
    lp = (old + ratio.log()).requires_grad_(True)
    z = torch.zeros_like(ratio)
    x = {"logprobs": lp, "old_logprobs": old, "advantages": adv, "returns": z, "values": z.clone().requires_grad_(True),
         "old_values": z, "entropy": z.clone().requires_grad_(True)}
    loss, pol, _, _ = call(candidate, x, torch.ones_like(ratio, dtype=torch.bool), 0.2, 0.5, 0.0, None)
    torch.testing.assert_close(pol.detach(), torch.tensor((-1.2 + 1.5 - 0.5 + 0.8) / 4, dtype=torch.float64, device=device),
                               msg=lambda m: "policy_loss for ratios [1.5, 1.5, 0.5, 0.5], A [1, -1, 1, -1], eps 0.2 "
                                             "should be mean([-1.2, 1.5, -0.5, 0.8]):\n" + m)
    loss.backward()
    want = torch.tensor([[0.0, 1.5, -0.5, 0.0]], dtype=torch.float64, device=device) / 4
    torch.testing.assert_close(lp.grad, want, msg=lambda m: (
        "d loss / d logprobs = -ratio * A / N where the unclipped term is the min, 0 where the clipped one is "
        "(ratio 1.5 with A > 0, ratio 0.5 with A < 0):\n" + m))


def test_very_negative_logprobs(candidate, device):
    """Log-probs near -150 in float32: exp(-150) underflows to 0, exp of the difference does not."""
    gen = torch.Generator().manual_seed(5)
    x, mask = make(3, 6, gen, device, torch.float32)
    x["old_logprobs"] = torch.where(mask, x["old_logprobs"] - 147.0, x["old_logprobs"])
    x["logprobs"] = torch.where(mask, x["logprobs"] - 147.0, x["logprobs"])
    x["logprobs"].requires_grad_(True)
    out = call(candidate, x, mask, 0.2, 0.5, 0.01, None)
    assert all(torch.isfinite(t) for t in out), "log-probs near -150 gave a non-finite loss: use exp(logprobs - old_logprobs)"
    x64 = {k: v.detach().double() for k, v in x.items()}
    check_parts(out, reference(x64, mask, 0.2, 0.5, 0.01, None), "is wrong at log-probs near -150 (float32)")
    out[0].backward()
    assert torch.isfinite(x["logprobs"].grad).all(), "the gradient must stay finite at log-probs near -150"


def benchmark_case(module, device):
    gen = torch.Generator().manual_seed(0)
    x, mask = make(64, 1024, gen, device, torch.float32)
    return lambda: module.ppo_loss(*(x[k] for k in NAMES), mask, 0.2, 0.5, 0.01, 0.2)
