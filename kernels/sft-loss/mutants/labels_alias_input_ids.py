"""Writes the -100 ignore labels into a view of input_ids, so the caller's token ids are overwritten."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor


def sft_loss(logits: Tensor, input_ids: Tensor, prompt_lengths: Tensor, attention_mask: Tensor) -> Tensor:
    B, T, V = logits.shape
    labels = input_ids[:, 1:]  # a view: no copy needed... or so it seems
    t = torch.arange(1, T, device=input_ids.device)
    labels[(t[None, :] < prompt_lengths[:, None]) | (attention_mask[:, 1:] == 0)] = -100
    if not bool((labels != -100).any()):
        raise ValueError("nothing to train on")
    return F.cross_entropy(logits[:, :-1].float().reshape(-1, V), labels.reshape(-1), ignore_index=-100)
