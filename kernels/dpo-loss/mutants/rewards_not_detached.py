"""Returns the implicit rewards still attached to the autograd graph."""

from __future__ import annotations

import torch.nn.functional as F
from torch import Tensor


def dpo_loss(policy_chosen_logps: Tensor, policy_rejected_logps: Tensor,
             ref_chosen_logps: Tensor, ref_rejected_logps: Tensor,
             beta: float = 0.1) -> tuple[Tensor, Tensor, Tensor]:
    chosen = beta * (policy_chosen_logps - ref_chosen_logps)
    rejected = beta * (policy_rejected_logps - ref_rejected_logps)
    loss = -F.logsigmoid(chosen - rejected).mean()
    return loss, chosen, rejected
