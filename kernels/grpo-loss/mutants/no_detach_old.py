"""Leaves old_logprobs and ref_logprobs attached, so gradient flows into the constants."""

from __future__ import annotations

import torch
from torch import Tensor


def group_advantages(rewards: Tensor, group_size: int, eps: float = 1e-4) -> Tensor:
    if group_size < 2 or rewards.numel() % group_size != 0:
        raise ValueError("bad group_size")
    r = rewards.detach().view(-1, group_size)
    mean = r.mean(dim=1, keepdim=True)
    std = r.std(dim=1, keepdim=True)
    return ((r - mean) / (std + eps)).view(-1)


def grpo_loss(logprobs: Tensor, old_logprobs: Tensor, ref_logprobs: Tensor, rewards: Tensor,
              mask: Tensor, group_size: int, clip_eps: float = 0.2, beta: float = 0.04,
              eps: float = 1e-4) -> tuple[Tensor, Tensor, Tensor]:
    adv = group_advantages(rewards, group_size, eps)
    a = adv[:, None]
    ratio = torch.exp(logprobs - old_logprobs)
    surr = torch.minimum(ratio * a, ratio.clamp(1 - clip_eps, 1 + clip_eps) * a)
    d = ref_logprobs - logprobs
    kl = torch.exp(d) - d - 1
    per_token = -(surr - beta * kl)
    m = mask.to(logprobs.dtype)

    def reduce(x):
        return ((x * m).sum(dim=1) / m.sum(dim=1)).mean()

    return reduce(per_token), adv, reduce(kl.detach())
