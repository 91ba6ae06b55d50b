"""Computes in float32 for accuracy but returns float32 outputs for bfloat16 inputs."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor


def dpo_loss(policy_chosen_logps: Tensor, policy_rejected_logps: Tensor,
             ref_chosen_logps: Tensor, ref_rejected_logps: Tensor,
             beta: float = 0.1) -> tuple[Tensor, Tensor, Tensor]:
    pc, pr, rc, rr = (t.float() for t in (policy_chosen_logps, policy_rejected_logps,
                                          ref_chosen_logps, ref_rejected_logps))
    chosen, rejected = pc - rc, pr - rr
    loss = -F.logsigmoid(beta * (chosen - rejected)).mean()
    return loss, (beta * chosen).detach(), (beta * rejected).detach()
