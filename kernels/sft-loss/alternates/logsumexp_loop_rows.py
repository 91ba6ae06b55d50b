"""Row by row: per-row real length from the mask, logsumexp minus target logit in float32, one global sum / count."""

from __future__ import annotations

import torch
from torch import Tensor


def sft_loss(logits: Tensor, input_ids: Tensor, prompt_lengths: Tensor, attention_mask: Tensor) -> Tensor:
    lengths = attention_mask.long().sum(1).tolist()  # right padding: the real tokens come first
    total = torch.zeros((), dtype=torch.float32, device=logits.device)
    count = 0
    for b, (L, P) in enumerate(zip(lengths, prompt_lengths.tolist())):
        if L <= P:
            continue
        z = logits[b, P - 1:L - 1].float()  # predicts targets P .. L-1
        tgt = input_ids[b, P:L]
        total = total + (torch.logsumexp(z, -1) - z.gather(1, tgt[:, None]).squeeze(1)).sum()
        count += L - P
    if count == 0:
        raise ValueError("no response tokens in the batch")
    return total / count
