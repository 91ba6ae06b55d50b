"""Adds the reference margin instead of subtracting it."""

from __future__ import annotations

import torch.nn.functional as F
from torch import Tensor


def dpo_loss(policy_chosen_logps: Tensor, policy_rejected_logps: Tensor,
             ref_chosen_logps: Tensor, ref_rejected_logps: Tensor,
             beta: float = 0.1) -> tuple[Tensor, Tensor, Tensor]:
    logits = beta * ((policy_chosen_logps - policy_rejected_logps) + (ref_chosen_logps - ref_rejected_logps))
    loss = -F.logsigmoid(logits).mean()
    chosen = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected = beta * (policy_rejected_logps - ref_rejected_logps)
    return loss, chosen.detach(), rejected.detach()
