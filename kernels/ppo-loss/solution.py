"""PPO clipped surrogate loss with value and entropy terms."""

from __future__ import annotations

import torch
from torch import Tensor


def ppo_loss(logprobs: Tensor, old_logprobs: Tensor, advantages: Tensor, returns: Tensor,
             values: Tensor, old_values: Tensor, entropy: Tensor, mask: Tensor,
             clip_eps: float = 0.2, vf_coef: float = 0.5, ent_coef: float = 0.01,
             vf_clip: float | None = None) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """All tensors (B, T); mask bool, True on response tokens. Returns (loss, policy_loss,
    value_loss, entropy_mean), each a token mean over the mask-True positions of the batch;
    loss = policy_loss + vf_coef * value_loss - ent_coef * entropy_mean."""
    m = mask.to(logprobs.dtype)
    n = m.sum()

    def masked_mean(x: Tensor) -> Tensor:
        # where() (not x * m) so junk under the mask can never leak, even as 0 * inf
        return torch.where(mask, x, torch.zeros_like(x)).sum() / n

    old_logprobs, advantages = old_logprobs.detach(), advantages.detach()
    returns, old_values = returns.detach(), old_values.detach()

    ratio = torch.exp(logprobs - old_logprobs)
    surrogate = torch.minimum(ratio * advantages, ratio.clamp(1 - clip_eps, 1 + clip_eps) * advantages)
    policy_loss = masked_mean(-surrogate)

    vf = (values - returns) ** 2
    if vf_clip is not None:
        v_clipped = old_values + (values - old_values).clamp(-vf_clip, vf_clip)
        vf = torch.maximum(vf, (v_clipped - returns) ** 2)
    value_loss = 0.5 * masked_mean(vf)

    entropy_mean = masked_mean(entropy)
    loss = policy_loss + vf_coef * value_loss - ent_coef * entropy_mean
    return loss, policy_loss, value_loss, entropy_mean
