"""Takes the padding mask at the input position (mask[:, :-1]) instead of the target's, so the first pad target counts."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor


def sft_loss(logits: Tensor, input_ids: Tensor, prompt_lengths: Tensor, attention_mask: Tensor) -> Tensor:
    B, T, V = logits.shape
    labels = input_ids.clone()
    positions = torch.arange(T, device=input_ids.device)
    labels[positions[None, :] < prompt_lengths[:, None]] = -100  # prompt tokens
    shift_logits = logits[:, :-1].float()
    shift_labels = labels[:, 1:].masked_fill(attention_mask[:, :-1] == 0, -100)
    if not bool((shift_labels != -100).any()):
        raise ValueError("nothing to train on")
    return F.cross_entropy(shift_logits.reshape(-1, V), shift_labels.reshape(-1), ignore_index=-100)
