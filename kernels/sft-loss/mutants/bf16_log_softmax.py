"""Takes the log-softmax in bf16 and upcasts only the gathered log-probs before the float32 mean."""

from __future__ import annotations

import torch
from torch import Tensor


def sft_loss(logits: Tensor, input_ids: Tensor, prompt_lengths: Tensor, attention_mask: Tensor) -> Tensor:
    T = input_ids.shape[1]
    t = torch.arange(1, T, device=input_ids.device)
    counted = (t[None, :] >= prompt_lengths[:, None]) & attention_mask[:, 1:].bool()
    n = counted.sum()
    if int(n) == 0:
        raise ValueError("nothing to train on")
    logp = torch.log_softmax(logits[:, :-1], -1)  # logits dtype
    token_logp = logp.gather(-1, input_ids[:, 1:, None]).squeeze(-1).float()
    return -(token_logp * counted).sum() / n
