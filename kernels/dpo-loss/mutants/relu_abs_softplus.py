"""Stable softplus by hand as relu(-x) + log1p(exp(-|x|)): right values, but zero gradient at logits == 0."""

from __future__ import annotations

import torch
from torch import Tensor


def dpo_loss(policy_chosen_logps: Tensor, policy_rejected_logps: Tensor,
             ref_chosen_logps: Tensor, ref_rejected_logps: Tensor,
             beta: float = 0.1) -> tuple[Tensor, Tensor, Tensor]:
    chosen = policy_chosen_logps - ref_chosen_logps
    rejected = policy_rejected_logps - ref_rejected_logps
    x = beta * (chosen - rejected)
    per = torch.relu(-x) + torch.log1p(torch.exp(-x.abs()))
    return per.mean(), (beta * chosen).detach(), (beta * rejected).detach()
