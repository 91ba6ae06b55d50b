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
    raise NotImplementedError
