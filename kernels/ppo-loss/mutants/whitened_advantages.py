"""Normalises the advantages to zero mean and unit std over the response tokens first."""

from __future__ import annotations

import torch
from torch import Tensor


def ppo_loss(logprobs: Tensor, old_logprobs: Tensor, advantages: Tensor, returns: Tensor,
             values: Tensor, old_values: Tensor, entropy: Tensor, mask: Tensor,
             clip_eps: float = 0.2, vf_coef: float = 0.5, ent_coef: float = 0.01,
             vf_clip: float | None = None) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    old_logprobs, advantages, returns, old_values = (t.detach() for t in (old_logprobs, advantages, returns, old_values))
    m = mask.to(logprobs.dtype)
    n = m.sum()
    a = advantages[mask]
    advantages = (advantages - a.mean()) / (a.std(unbiased=False) + 1e-8) if a.numel() > 1 else advantages
    ratio = torch.exp(logprobs - old_logprobs.detach())
    pg = -torch.min(ratio * advantages, ratio.clamp(1 - clip_eps, 1 + clip_eps) * advantages)
    policy_loss = (pg * m).sum() / n
    vf = (values - returns) ** 2
    if vf_clip is not None:
        vc = old_values + (values - old_values).clamp(-vf_clip, vf_clip)
        vf = torch.max(vf, (vc - returns) ** 2)
    value_loss = 0.5 * (vf * m).sum() / n
    ent = (entropy * m).sum() / n
    return policy_loss + vf_coef * value_loss - ent_coef * ent, policy_loss, value_loss, ent
