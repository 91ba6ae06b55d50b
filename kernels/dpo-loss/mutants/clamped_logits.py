"""Clamps the logits to [-50, 50] to dodge overflow, which caps the loss and kills the gradient beyond."""

from __future__ import annotations

import torch
from torch import Tensor


def dpo_loss(policy_chosen_logps: Tensor, policy_rejected_logps: Tensor,
             ref_chosen_logps: Tensor, ref_rejected_logps: Tensor,
             beta: float = 0.1) -> tuple[Tensor, Tensor, Tensor]:
    chosen = policy_chosen_logps - ref_chosen_logps
    rejected = policy_rejected_logps - ref_rejected_logps
    x = (beta * (chosen - rejected)).clamp(-50.0, 50.0)
    loss = torch.log1p(torch.exp(-x)).mean()
    return loss, (beta * chosen).detach(), (beta * rejected).detach()
