"""Flattens the shifted logits with .view(), which fails on non-contiguous logits."""

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
    shift_logits = logits.float()[:, :-1]
    shift_labels = labels[:, 1:]
    if not bool((shift_labels != -100).any()):
        raise ValueError("nothing to train on")
    return F.cross_entropy(shift_logits.contiguous().view(-1, V) if logits.is_contiguous() else shift_logits.view(-1, V), shift_labels.reshape(-1), ignore_index=-100)
