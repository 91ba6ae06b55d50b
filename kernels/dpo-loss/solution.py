"""Direct Preference Optimization (DPO) loss."""

from __future__ import annotations

import torch.nn.functional as F
from torch import Tensor


def dpo_loss(policy_chosen_logps: Tensor, policy_rejected_logps: Tensor,
             ref_chosen_logps: Tensor, ref_rejected_logps: Tensor,
             beta: float = 0.1) -> tuple[Tensor, Tensor, Tensor]:
    """Returns (loss, chosen_rewards, rejected_rewards); loss = mean -log sigmoid(beta * margin diff)."""
    chosen = policy_chosen_logps - ref_chosen_logps
    rejected = policy_rejected_logps - ref_rejected_logps
    logits = beta * (chosen - rejected)
    loss = -F.logsigmoid(logits).mean()
    return loss, (beta * chosen).detach(), (beta * rejected).detach()
