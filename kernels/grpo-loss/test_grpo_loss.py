"""Hidden tests for the grpo-loss drill."""

from __future__ import annotations

import math

import pytest
import torch

# (clip_eps, beta, eps), one per seed
SETTINGS = [(0.2, 0.04, 1e-4), (0.1, 0.3, 1e-2), (0.3, 0.0, 0.5)]


def ref_advantages(rewards, G, eps):
    """Group by group in Python, sample std (divisor G - 1)."""
    out = []
    r = rewards.detach().double().tolist()
    for g in range(0, len(r), G):
        grp = r[g:g + G]
        mean = sum(grp) / G
        std = math.sqrt(sum((v - mean) ** 2 for v in grp) / (G - 1))
        out += [(v - mean) / (std + eps) for v in grp]
    return torch.tensor(out, dtype=torch.float64)


def reference(lp, old, ref, rewards, mask, G, clip_eps, beta, eps):
    """Response by response over its selected tokens, in float64; differentiable in lp; results on the cpu."""
    adv = ref_advantages(rewards, G, eps)
    losses, kls = [], []
    for i in range(lp.shape[0]):
        m = mask[i]
        x = lp[i][m].double()
        o, r = old[i][m].detach().double(), ref[i][m].detach().double()
        ratio = torch.exp(x - o)
        a = float(adv[i])
        surr = torch.min(ratio * a, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * a)
        kl = torch.exp(r - x) - (r - x) - 1
        losses.append((-(surr - beta * kl)).mean())
        kls.append(kl.mean())
    return torch.stack(losses).mean().cpu(), adv, torch.stack(kls).mean().cpu()


def make(P, G, T, gen, device, dtype=torch.float64, constant_group=False, shift=0.0):
    N = P * G
    r = lambda *s: torch.rand(*s, generator=gen, dtype=torch.float64)
    n = lambda *s: torch.randn(*s, generator=gen, dtype=torch.float64)
    start = torch.randint(0, T, (N,), generator=gen)
    length = torch.stack([torch.randint(1, T - int(s0) + 1, (1,), generator=gen)[0] for s0 in start])
    pos = torch.arange(T)
    mask = (pos >= start[:, None]) & (pos < (start + length)[:, None])
    old = -3 * r(N, T) - 0.05
    lp = (old + 0.3 * n(N, T)).clamp(max=0.0)
    ref = (lp + 0.4 * n(N, T)).clamp(max=0.0)
    lp, old, ref = (torch.where(mask, t + shift, 20 * r(N, T) - 10) for t in (lp, old, ref))
    rewards = torch.randint(0, 4, (N,), generator=gen).double() + 0.5 * n(N)
    if constant_group:
        g = int(torch.randint(0, P, (1,), generator=gen))
        rewards[g * G:(g + 1) * G] = 1.5
    conv = lambda t: t.to(device=device, dtype=dtype)
    return conv(lp), conv(old), conv(ref), conv(rewards), mask.to(device)


def call(candidate, lp, old, ref, rewards, mask, G, *args, **kwargs):
    before = [t.detach().clone() for t in (lp, old, ref, rewards, mask)]
    out = candidate.grpo_loss(lp, old, ref, rewards, mask, G, *args, **kwargs)
    for name, t, b in zip(("logprobs", "old_logprobs", "ref_logprobs", "rewards", "mask"),
                          (lp, old, ref, rewards, mask), before):
        assert torch.equal(t.detach(), b), f"grpo_loss modified its input `{name}`"
    assert isinstance(out, tuple) and len(out) == 3, "grpo_loss must return (loss, advantages, kl)"
    loss, adv, kl = out
    assert loss.dim() == 0 and kl.dim() == 0, "loss and kl must be 0-dim tensors"
    assert adv.shape == rewards.shape, f"advantages must have shape (N,) = {tuple(rewards.shape)}, got {tuple(adv.shape)}"
    for name, t in (("loss", loss), ("advantages", adv), ("kl", kl)):
        assert t.dtype == lp.dtype, f"{name} must keep the input dtype {lp.dtype}, got {t.dtype}"
    return out


def test_advantages_hand_computed(candidate, device):
    rewards = torch.tensor([1.0, 0.0, 0.0, 1.0, 2.0, 2.0, 3.0, 3.0, 3.0], device=device)
    got = candidate.group_advantages(rewards, 3)
    s = 1 / math.sqrt(3)  # sample std of [1, 0, 0] and of [1, 2, 2]
    want = torch.tensor([2 / 3, -1 / 3, -1 / 3, -2 / 3, 1 / 3, 1 / 3, 0, 0, 0], device=device) / (s + 1e-4)
    assert got.shape == (9,), f"advantages must have shape (N,) = (9,), got {tuple(got.shape)}"
    assert torch.isfinite(got).all(), "an all-equal group [3, 3, 3] must give advantage 0, not NaN: (r - mean) / (std + eps)"
    torch.testing.assert_close(got, want, msg=lambda m: (
        "groups are 3 consecutive rewards [1,0,0] [1,2,2] [3,3,3]; A = (r - mean) / (sample std + 1e-4), "
        "sample std = sqrt(1/3), the all-equal group gives 0:\n" + m))
    got = candidate.group_advantages(torch.tensor([4.0, 0.0, 2.0, 2.0], device=device), 2, eps=0.5)
    s = math.sqrt(8.0)  # sample std of [4, 0]
    want = torch.tensor([2 / (s + 0.5), -2 / (s + 0.5), 0.0, 0.0], device=device)
    torch.testing.assert_close(got, want, msg=lambda m: (
        "group_size=2, eps=0.5: [4, 0] -> +-2 / (sqrt(8) + 0.5) (eps added to the std, not under the root); [2, 2] -> 0:\n" + m))


def test_advantages_random(candidate, device, seed):
    gen = torch.Generator().manual_seed(300 + seed)
    eps = SETTINGS[seed][2]
    for P, G in [(1, 2), (1, 5), (2, 3), (3, 2), (4, 6), (int(torch.randint(2, 6, (1,), generator=gen)), 4)]:
        rewards = (torch.randint(0, 3, (P * G,), generator=gen) + torch.rand(P * G, generator=gen)).to(device)
        if P > 1:
            rewards[G:2 * G] = -0.25
        got = candidate.group_advantages(rewards, G, eps)
        assert torch.isfinite(got).all(), f"non-finite advantages for P={P}, G={G} (an all-equal group must give 0)"
        assert got.dtype == rewards.dtype and got.shape == rewards.shape, "advantages keep the rewards' shape (N,) and dtype"
        torch.testing.assert_close(got.cpu(), ref_advantages(rewards, G, eps).float(), msg=lambda m: (
            f"advantages for {P} prompt(s) x G={G} consecutive responses, eps={eps}: normalise within each group "
            f"(rows g*G .. g*G+G-1), sample std:\n{m}"))


@pytest.mark.parametrize("N,G", [(6, 1), (7, 2), (9, 4), (5, 0)])
def test_validation(candidate, device, N, G):
    rewards = torch.rand(N, device=device)
    with pytest.raises(ValueError):
        candidate.group_advantages(rewards, G)
    lp = -torch.rand(N, 3, device=device)
    mask = torch.ones(N, 3, dtype=torch.bool, device=device)
    with pytest.raises(ValueError):
        candidate.grpo_loss(lp, lp.clone(), lp.clone(), rewards, mask, G)


def test_loss_hand_computed(candidate, device):
    # ratio 1 everywhere, beta 0: per-token loss -A_i; responses of 1 and 3 tokens weigh the same
    lp = torch.tensor([[-1.0, 7.0, 7.0], [-1.0, -2.0, -0.5]], device=device)
    mask = torch.tensor([[True, False, False], [True, True, True]], device=device)
    rewards = torch.tensor([1.0, 0.0], device=device)
    loss, adv, kl = call(candidate, lp, lp.clone(), lp.clone(), rewards, mask, 2, 0.2, 0.0)
    torch.testing.assert_close(loss.detach(), torch.tensor(0.0, device=device), msg=lambda m: (
        "with ratio 1 and beta 0 each response's mean loss is -A_i and the advantages of the group sum to 0, "
        "so the per-response mean then mean over responses is 0 (a mean over all 4 tokens is not):\n" + m))
    torch.testing.assert_close(kl.detach(), torch.tensor(0.0, device=device), msg=lambda m: "kl is 0 when ref == policy:\n" + m)
    # KL: d = ref - logprobs = +log 2 on response 0, 0 on response 1; k3 = e^d - d - 1
    ref = lp + torch.tensor([[math.log(2), 0.0, 0.0], [0.0] * 3], device=device)
    loss, adv, kl = call(candidate, lp, lp.clone(), ref, rewards, mask, 2, 0.2, 0.5)
    k_pos = 1 - math.log(2)
    torch.testing.assert_close(kl.detach(), torch.tensor(k_pos / 2, device=device), msg=lambda m: (
        f"kl: d = ref - logprobs = +log 2 gives k3 = exp(d) - d - 1 = {k_pos:.4f} (not exp(-d) + d - 1 = "
        f"{math.log(2) - 0.5:.4f}), d = 0 gives 0; the mean of the two responses:\n" + m))
    torch.testing.assert_close(loss.detach(), torch.tensor(0.5 * k_pos / 2, device=device), msg=lambda m: (
        "loss = mean over responses of mean over tokens of -(surr - beta * kl), here beta * mean kl:\n" + m))


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_loss_matches_formula(candidate, device, seed, dtype):
    gen = torch.Generator().manual_seed(400 + seed)
    clip_eps, beta, eps = SETTINGS[seed]
    shapes = [(1, 2, 5), (1, 4, 1), (2, 3, 9), (3, 5, 7), (int(torch.randint(2, 5, (1,), generator=gen)), 6, 12)]
    for P, G, T in shapes:
        lp, old, ref, rewards, mask = make(P, G, T, gen, device, dtype, constant_group=(P > 1))
        loss, adv, kl = call(candidate, lp, old, ref, rewards, mask, G, clip_eps=clip_eps, beta=beta, eps=eps)
        w_loss, w_adv, w_kl = reference(lp, old, ref, rewards, mask, G, clip_eps, beta, eps)
        what = f"(P={P} prompts x G={G}, T={T}, clip_eps={clip_eps}, beta={beta}, eps={eps})"
        torch.testing.assert_close(adv.detach().cpu(), w_adv.to(dtype), msg=lambda m: f"advantages differ {what}:\n{m}")
        torch.testing.assert_close(kl.detach().cpu(), w_kl.to(dtype), msg=lambda m: (
            f"kl differs {what}: k3 = exp(ref - logp) - (ref - logp) - 1, mean per response over its tokens, then over responses:\n{m}"))
        torch.testing.assert_close(loss.detach().cpu(), w_loss.to(dtype), msg=lambda m: (
            f"loss differs {what}: mean per response over its own mask-True tokens, then mean over responses:\n{m}"))


def test_default_arguments(candidate, device):
    gen = torch.Generator().manual_seed(11)
    lp, old, ref, rewards, mask = make(2, 4, 6, gen, device)
    loss, adv, kl = call(candidate, lp, old, ref, rewards, mask, 4)
    w_loss, w_adv, w_kl = reference(lp, old, ref, rewards, mask, 4, 0.2, 0.04, 1e-4)
    for name, got, want in (("loss", loss, w_loss), ("advantages", adv, w_adv), ("kl", kl, w_kl)):
        torch.testing.assert_close(got.detach().cpu(), want, msg=lambda m: (
            f"{name} differs with the defaults clip_eps=0.2, beta=0.04, eps=1e-4:\n{m}"))
    torch.testing.assert_close(candidate.group_advantages(rewards, 4).cpu(), w_adv, msg=lambda m: (
        "group_advantages' default eps is 1e-4:\n" + m))


def test_gradients(candidate, device, seed):
    gen = torch.Generator().manual_seed(500 + seed)
    clip_eps, beta, eps = SETTINGS[seed]
    lp, old, ref, rewards, mask = make(3, 4, 8, gen, device, constant_group=True)
    for t in (lp, old, ref, rewards):
        t.requires_grad_(True)
    loss, _, _ = call(candidate, lp, old, ref, rewards, mask, 4, clip_eps, beta, eps)
    assert loss.requires_grad, "loss must be differentiable w.r.t. logprobs"
    loss.backward()
    for name, t in (("old_logprobs", old), ("ref_logprobs", ref), ("rewards", rewards)):
        assert t.grad is None or not t.grad.any(), f"gradient flowed into `{name}`: it is a constant, detach it"
    x = lp.detach().clone().requires_grad_(True)
    reference(x, old, ref, rewards, mask, 4, clip_eps, beta, eps)[0].backward()
    assert lp.grad is not None, "loss does not depend on logprobs"
    torch.testing.assert_close(lp.grad, x.grad.to(lp.device), msg=lambda m: (
        f"d loss / d logprobs is wrong (clip_eps={clip_eps}, beta={beta}; clipped tokens and padding get no "
        "surrogate gradient, each response's tokens are weighted 1 / (N * its length)):\n" + m))


def test_very_negative_logprobs(candidate, device):
    gen = torch.Generator().manual_seed(13)
    lp, old, ref, rewards, mask = make(2, 3, 6, gen, device, torch.float32, shift=-147.0)
    loss, adv, kl = call(candidate, lp, old, ref, rewards, mask, 3, 0.2, 0.1)
    assert torch.isfinite(loss) and torch.isfinite(kl), "log-probs near -150 gave a non-finite loss: use exp of differences"
    w_loss, _, w_kl = reference(lp.double(), old.double(), ref.double(), rewards, mask, 3, 0.2, 0.1, 1e-4)
    torch.testing.assert_close(loss.detach().cpu(), w_loss.float(), msg=lambda m: "loss is wrong at log-probs near -150 (float32):\n" + m)
    torch.testing.assert_close(kl.detach().cpu(), w_kl.float(), msg=lambda m: "kl is wrong at log-probs near -150 (float32):\n" + m)


def benchmark_case(module, device):
    gen = torch.Generator().manual_seed(0)
    lp, old, ref, rewards, mask = make(64, 8, 512, gen, device, torch.float32)
    return lambda: module.grpo_loss(lp, old, ref, rewards, mask, 8)
