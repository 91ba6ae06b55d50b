"""Casts every input to float32 first, so float64 inputs get float32 (and less precise) outputs."""

from __future__ import annotations

import torch
from torch import Tensor


def ppo_loss(logprobs: Tensor, old_logprobs: Tensor, advantages: Tensor, returns: Tensor,
             values: Tensor, old_values: Tensor, entropy: Tensor, mask: Tensor,
             clip_eps: float = 0.2, vf_coef: float = 0.5, ent_coef: float = 0.01,
             vf_clip: float | None = None) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    lp, values, entropy = logprobs.float(), values.float(), entropy.float()
    old, adv, ret, oval = (t.detach().float() for t in (old_logprobs, advantages, returns, old_values))
    m = mask.float()
    n = m.sum()
    ratio = torch.exp(lp - old)
    pg = -torch.min(ratio * adv, ratio.clamp(1 - clip_eps, 1 + clip_eps) * adv)
    policy_loss = (pg * m).sum() / n
    vf = (values - ret) ** 2
    if vf_clip is not None:
        vc = oval + (values - oval).clamp(-vf_clip, vf_clip)
        vf = torch.max(vf, (vc - ret) ** 2)
    value_loss = 0.5 * (vf * m).sum() / n
    ent = (entropy * m).sum() / n
    return policy_loss + vf_coef * value_loss - ent_coef * ent, policy_loss, value_loss, ent
