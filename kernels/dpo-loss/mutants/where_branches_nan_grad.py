"""Picks a stable branch with torch.where, but the untaken branch overflows and makes the gradient NaN."""

from __future__ import annotations

import torch
from torch import Tensor


def dpo_loss(policy_chosen_logps: Tensor, policy_rejected_logps: Tensor,
             ref_chosen_logps: Tensor, ref_rejected_logps: Tensor,
             beta: float = 0.1) -> tuple[Tensor, Tensor, Tensor]:
    chosen = policy_chosen_logps - ref_chosen_logps
    rejected = policy_rejected_logps - ref_rejected_logps
    x = beta * (chosen - rejected)
    # -log sigmoid(x) = log1p(exp(-x)) for x >= 0, and -x + log1p(exp(x)) for x < 0
    per = torch.where(x >= 0, torch.log1p(torch.exp(-x)), -x + torch.log1p(torch.exp(x)))
    return per.mean(), (beta * chosen).detach(), (beta * rejected).detach()
