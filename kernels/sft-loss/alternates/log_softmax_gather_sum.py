"""float32 log-softmax over every shifted position, gather the targets, masked sum divided by the count."""

from __future__ import annotations

import torch
from torch import Tensor


def sft_loss(logits: Tensor, input_ids: Tensor, prompt_lengths: Tensor, attention_mask: Tensor) -> Tensor:
    B, T, _ = logits.shape
    targets = input_ids[:, 1:]
    idx = torch.arange(T, device=input_ids.device).expand(B, T)[:, 1:]
    weight = ((idx >= prompt_lengths.unsqueeze(1)) & (attention_mask[:, 1:] != 0)).float()
    count = weight.sum()
    if count.item() == 0:
        raise ValueError("no response tokens in the batch")
    logp = torch.log_softmax(logits[:, :-1].to(torch.float32), dim=-1)
    token_logp = torch.gather(logp, 2, targets.unsqueeze(2)).squeeze(2)
    return -(token_logp * weight).sum() / count
