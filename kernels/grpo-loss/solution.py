"""GRPO: group-relative advantages and the clipped-surrogate loss with a k3 KL penalty."""

from __future__ import annotations

import torch
from torch import Tensor


def group_advantages(rewards: Tensor, group_size: int, eps: float = 1e-4) -> Tensor:
    """rewards (N,), the G = group_size responses of a prompt consecutive. Returns (N,)
    (r - group mean) / (group sample std + eps). ValueError if G < 2 or N % G != 0."""
    if group_size < 2 or rewards.numel() % group_size != 0:
        raise ValueError(f"need group_size >= 2 dividing N; got N={rewards.numel()}, group_size={group_size}")
    r = rewards.detach().view(-1, group_size)
    mean = r.mean(dim=1, keepdim=True)
    std = r.std(dim=1, keepdim=True)  # sample std (divisor G - 1)
    return ((r - mean) / (std + eps)).view(-1)


def grpo_loss(logprobs: Tensor, old_logprobs: Tensor, ref_logprobs: Tensor, rewards: Tensor,
              mask: Tensor, group_size: int, clip_eps: float = 0.2, beta: float = 0.04,
              eps: float = 1e-4) -> tuple[Tensor, Tensor, Tensor]:
    """(N, T) log-probs and bool mask, (N,) rewards. Returns (loss, advantages (N,), kl): per-token
    -(min(ratio*A, clip(ratio)*A) - beta*k3), averaged per response over its mask, then over responses."""
    adv = group_advantages(rewards, group_size, eps)
    a = adv[:, None]
    ratio = torch.exp(logprobs - old_logprobs.detach())
    surr = torch.minimum(ratio * a, ratio.clamp(1 - clip_eps, 1 + clip_eps) * a)
    d = ref_logprobs.detach() - logprobs
    kl = torch.exp(d) - d - 1
    per_token = -(surr - beta * kl)

    count = mask.sum(dim=1).to(logprobs.dtype)

    def per_response_mean(x: Tensor) -> Tensor:
        return (torch.where(mask, x, torch.zeros_like(x)).sum(dim=1) / count).mean()

    return per_response_mean(per_token), adv, per_response_mean(kl.detach())
