"""Returns the cross-entropy of nothing (nan) when no target counts, instead of raising ValueError."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor


def sft_loss(logits: Tensor, input_ids: Tensor, prompt_lengths: Tensor, attention_mask: Tensor) -> Tensor:
    B, T, V = logits.shape
    labels = input_ids.clone()
    positions = torch.arange(T, device=input_ids.device)
    labels[positions[None, :] < prompt_lengths[:, None]] = -100  # prompt tokens
    labels[attention_mask == 0] = -100  # padding
    shift_logits = logits[:, :-1].float()
    shift_labels = labels[:, 1:]
    return F.cross_entropy(shift_logits.reshape(-1, V), shift_labels.reshape(-1), ignore_index=-100)
