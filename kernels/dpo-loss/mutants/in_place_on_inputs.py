"""Subtracts the reference log-probs in place, overwriting the caller's policy tensors."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor


def dpo_loss(policy_chosen_logps: Tensor, policy_rejected_logps: Tensor,
             ref_chosen_logps: Tensor, ref_rejected_logps: Tensor,
             beta: float = 0.1) -> tuple[Tensor, Tensor, Tensor]:
    with torch.no_grad():  # "save memory": reuse the reference buffers
        ref_chosen_logps.sub_(policy_chosen_logps).neg_()
        ref_rejected_logps.sub_(policy_rejected_logps).neg_()
    chosen = policy_chosen_logps - (policy_chosen_logps.detach() - ref_chosen_logps)
    rejected = policy_rejected_logps - (policy_rejected_logps.detach() - ref_rejected_logps)
    loss = -F.logsigmoid(beta * (chosen - rejected)).mean()
    return loss, (beta * chosen).detach(), (beta * rejected).detach()
