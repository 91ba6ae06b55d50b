"""GRPO one prompt at a time: a Python loop over groups and over responses with boolean indexing."""

from __future__ import annotations

import torch
from torch import Tensor


def group_advantages(rewards: Tensor, group_size: int, eps: float = 1e-4) -> Tensor:
    if group_size < 2 or len(rewards) % group_size != 0:
        raise ValueError(f"bad group_size {group_size} for {len(rewards)} rewards")
    out = []
    for group in rewards.detach().split(group_size):
        std, mean = torch.std_mean(group)
        out.append((group - mean) / (std + eps))
    return torch.cat(out)


def grpo_loss(logprobs, old_logprobs, ref_logprobs, rewards, mask, group_size, clip_eps=0.2, beta=0.04, eps=1e-4):
    adv = group_advantages(rewards, group_size, eps)
    losses, kls = [], []
    for i in range(logprobs.shape[0]):
        keep = mask[i]
        lp = logprobs[i][keep]
        old, ref = old_logprobs[i][keep].detach(), ref_logprobs[i][keep].detach()
        ratio = torch.exp(lp - old)
        surr = torch.min(ratio * adv[i], torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * adv[i])
        kl = torch.exp(ref - lp) - (ref - lp) - 1
        losses.append((beta * kl - surr).mean())
        kls.append(kl.detach().mean())
    return torch.stack(losses).mean(), adv, torch.stack(kls).mean()
