"""DPO as binary cross-entropy with logits against an all-ones target, rewards computed first."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor


def dpo_loss(policy_chosen_logps: Tensor, policy_rejected_logps: Tensor,
             ref_chosen_logps: Tensor, ref_rejected_logps: Tensor,
             beta: float = 0.1) -> tuple[Tensor, Tensor, Tensor]:
    chosen_rewards = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected_rewards = beta * (policy_rejected_logps - ref_rejected_logps)
    margin = chosen_rewards - rejected_rewards
    loss = F.binary_cross_entropy_with_logits(margin, torch.ones_like(margin))
    return loss, chosen_rewards.detach(), rejected_rewards.detach()
