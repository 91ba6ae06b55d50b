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
    raise NotImplementedError
