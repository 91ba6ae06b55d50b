"""GRPO: group-relative advantages and the clipped-surrogate loss with a k3 KL penalty."""

from __future__ import annotations

import torch
from torch import Tensor


def group_advantages(rewards: Tensor, group_size: int, eps: float = 1e-4) -> Tensor:
    """rewards (N,), the G = group_size responses of a prompt consecutive. Returns (N,)
    (r - group mean) / (group sample std + eps). ValueError if G < 2 or N % G != 0."""
    raise NotImplementedError


def grpo_loss(logprobs: Tensor, old_logprobs: Tensor, ref_logprobs: Tensor, rewards: Tensor,
              mask: Tensor, group_size: int, clip_eps: float = 0.2, beta: float = 0.04,
              eps: float = 1e-4) -> tuple[Tensor, Tensor, Tensor]:
    """(N, T) log-probs and bool mask, (N,) rewards. Returns (loss, advantages (N,), kl): per-token
    -(min(ratio*A, clip(ratio)*A) - beta*k3), averaged per response over its mask, then over responses."""
    raise NotImplementedError
