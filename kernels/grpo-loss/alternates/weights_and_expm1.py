"""GRPO with hand-written group statistics, token weights 1 / (N * len_i) and expm1 for the k3 KL."""

from __future__ import annotations

import torch
from torch import Tensor


def group_advantages(rewards: Tensor, group_size: int, eps: float = 1e-4) -> Tensor:
    n = rewards.shape[0]
    if group_size < 2 or n % group_size:
        raise ValueError("group_size must be >= 2 and divide the number of responses")
    groups = rewards.detach().reshape(n // group_size, group_size)
    centred = groups - groups.sum(1, keepdim=True) / group_size
    std = (centred.square().sum(1, keepdim=True) / (group_size - 1)).sqrt()
    return (centred / (std + eps)).flatten()


def grpo_loss(logprobs: Tensor, old_logprobs: Tensor, ref_logprobs: Tensor, rewards: Tensor,
              mask: Tensor, group_size: int, clip_eps: float = 0.2, beta: float = 0.04,
              eps: float = 1e-4) -> tuple[Tensor, Tensor, Tensor]:
    adv = group_advantages(rewards, group_size, eps)
    n = logprobs.shape[0]
    m = mask.to(logprobs.dtype)
    weight = m / (m.sum(1, keepdim=True) * n)          # each response's weights sum to 1/N
    lp = torch.where(mask, logprobs, logprobs.detach())  # padding cannot reach the graph at all
    ratio = (lp - old_logprobs.detach()).exp()
    a = adv.unsqueeze(1).expand_as(ratio)
    capped = torch.where(a >= 0, ratio.clamp(max=1 + clip_eps), ratio.clamp(min=1 - clip_eps))
    d = ref_logprobs.detach() - lp
    kl = torch.expm1(d) - d
    per_token = beta * kl - capped * a
    per_token = torch.where(mask, per_token, torch.zeros_like(per_token))
    kl = torch.where(mask, kl.detach(), torch.zeros_like(kl))
    return (per_token * weight).sum(), adv, (kl * weight).sum()
