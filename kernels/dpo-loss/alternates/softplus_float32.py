"""Works in float32 whatever the input dtype, softplus(-x) per pair, then casts the outputs back."""

from __future__ import annotations

import torch.nn.functional as F
from torch import Tensor


def dpo_loss(policy_chosen_logps: Tensor, policy_rejected_logps: Tensor,
             ref_chosen_logps: Tensor, ref_rejected_logps: Tensor,
             beta: float = 0.1) -> tuple[Tensor, Tensor, Tensor]:
    dtype = policy_chosen_logps.dtype
    pc, pr = policy_chosen_logps.float(), policy_rejected_logps.float()
    rc, rr = ref_chosen_logps.float(), ref_rejected_logps.float()
    logits = beta * ((pc - pr) - (rc - rr))
    loss = F.softplus(-logits).sum() / logits.numel()
    return loss.to(dtype), (beta * (pc - rc)).to(dtype).detach(), (beta * (pr - rr)).to(dtype).detach()
