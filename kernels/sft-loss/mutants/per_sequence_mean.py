"""Averages each row's response NLL, then averages the rows (a per-sequence mean, not a token-level mean)."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor


def sft_loss(logits: Tensor, input_ids: Tensor, prompt_lengths: Tensor, attention_mask: Tensor) -> Tensor:
    T = input_ids.shape[1]
    t = torch.arange(1, T, device=input_ids.device)
    counted = (t[None, :] >= prompt_lengths[:, None]) & attention_mask[:, 1:].bool()
    if not bool(counted.any()):
        raise ValueError("nothing to train on")
    logp = torch.log_softmax(logits[:, :-1].float(), -1)
    nll = -logp.gather(-1, input_ids[:, 1:, None]).squeeze(-1)
    per_row = (nll * counted).sum(1) / counted.sum(1).clamp_min(1)
    has = counted.any(1)
    return per_row[has].mean()
