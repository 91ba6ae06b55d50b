"""Computes -log(sigmoid(logits)) directly, which overflows to inf at large negative margins."""

from __future__ import annotations

import torch
from torch import Tensor


def dpo_loss(policy_chosen_logps: Tensor, policy_rejected_logps: Tensor,
             ref_chosen_logps: Tensor, ref_rejected_logps: Tensor,
             beta: float = 0.1) -> tuple[Tensor, Tensor, Tensor]:
    chosen = policy_chosen_logps - ref_chosen_logps
    rejected = policy_rejected_logps - ref_rejected_logps
    logits = beta * (chosen - rejected)
    loss = -torch.log(torch.sigmoid(logits)).mean()
    return loss, (beta * chosen).detach(), (beta * rejected).detach()
