"""PPO loss by boolean indexing of the response tokens and the sign-split form of the clipped surrogate."""

from __future__ import annotations

import torch
from torch import Tensor


def ppo_loss(logprobs: Tensor, old_logprobs: Tensor, advantages: Tensor, returns: Tensor,
             values: Tensor, old_values: Tensor, entropy: Tensor, mask: Tensor,
             clip_eps: float = 0.2, vf_coef: float = 0.5, ent_coef: float = 0.01,
             vf_clip: float | None = None) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    lp, ent, v = logprobs[mask], entropy[mask], values[mask]
    with torch.no_grad():
        old, a, ret, v_old = old_logprobs[mask], advantages[mask], returns[mask], old_values[mask]
    ratio = (lp - old).exp()
    # A >= 0: min(r, 1 + eps) * A;  A < 0: max(r, 1 - eps) * A  (the same as min(rA, clip(r)A))
    bounded = torch.where(a >= 0, torch.clamp(ratio, max=1 + clip_eps), torch.clamp(ratio, min=1 - clip_eps))
    policy_loss = -(bounded * a).mean()
    err = v - ret
    if vf_clip is None:
        vf = err.square()
    else:
        err_clipped = v_old - ret + torch.clamp(v - v_old, -vf_clip, vf_clip)
        vf = torch.where(err.abs() >= err_clipped.abs(), err, err_clipped).square()
    value_loss = vf.mean() / 2
    entropy_mean = ent.mean()
    loss = policy_loss + vf_coef * value_loss - ent_coef * entropy_mean
    return loss, policy_loss.detach(), value_loss.detach(), entropy_mean.detach()
