"""Sums the per-pair losses over the batch instead of averaging them."""

from __future__ import annotations

import torch.nn.functional as F
from torch import Tensor


def dpo_loss(policy_chosen_logps: Tensor, policy_rejected_logps: Tensor,
             ref_chosen_logps: Tensor, ref_rejected_logps: Tensor,
             beta: float = 0.1) -> tuple[Tensor, Tensor, Tensor]:
    chosen = policy_chosen_logps - ref_chosen_logps
    rejected = policy_rejected_logps - ref_rejected_logps
    loss = -F.logsigmoid(beta * (chosen - rejected)).sum()
    return loss, (beta * chosen).detach(), (beta * rejected).detach()
