"""Supervised fine-tuning loss: shifted next-token cross-entropy on the response tokens only."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor


def sft_loss(logits: Tensor, input_ids: Tensor, prompt_lengths: Tensor, attention_mask: Tensor) -> Tensor:
    """logits (B, T, V), input_ids (B, T), prompt_lengths (B,), attention_mask (B, T).

    Returns the float32 token-level mean of -log p(input_ids[b, t] | logits[b, t - 1]) over the target
    indices t >= prompt_lengths[b] where attention_mask[b, t] is set; ValueError when none counts.
    """
    T = input_ids.shape[1]
    target_index = torch.arange(1, T, device=input_ids.device)  # the index each shifted target has
    counted = (target_index[None, :] >= prompt_lengths[:, None]) & attention_mask[:, 1:].bool()  # (B, T-1)
    if not bool(counted.any()):
        raise ValueError("no response token to train on (every response is empty)")
    # only the counted rows are upcast: float32 log-softmax and mean without a float copy of all logits
    scores = logits[:, :-1][counted].float()  # (N, V)
    targets = input_ids[:, 1:][counted]  # (N,)
    return F.cross_entropy(scores, targets, reduction="mean")
