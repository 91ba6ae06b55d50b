"""Grouped-query attention (MHA / GQA / MQA) without repeating K and V."""

from __future__ import annotations

import math

import torch


def gqa_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False) -> torch.Tensor:
    """q: (B, Hq, S, D); k, v: (B, Hkv, S, D) with Hq % Hkv == 0 (else ValueError).

    Query head h attends with K/V head h // (Hq // Hkv); scale 1/sqrt(D); causal: query i
    sees keys j <= i. Returns (B, Hq, S, D) in q's dtype. Never materialise K or V repeated
    per query head; do not call scaled_dot_product_attention.
    """
    B, Hq, S, D = q.shape
    Hkv = k.shape[1]
    if Hq % Hkv != 0:
        raise ValueError(f"Hq={Hq} is not a multiple of Hkv={Hkv}")
    G = Hq // Hkv
    # Fold each group's G query heads into the row dim: (B, Hkv, G*S, D) is a view of q.
    qg = q.reshape(B, Hkv, G * S, D).float()
    scores = (qg @ k.float().transpose(-1, -2)) * (1.0 / math.sqrt(D))  # (B, Hkv, G*S, S)
    if causal:
        pos = torch.arange(S, device=q.device)
        future = pos[None, :] > pos[:, None]  # (S, S): key after query
        scores = scores.view(B, Hkv, G, S, S).masked_fill(future, float("-inf")).view(B, Hkv, G * S, S)
    out = torch.softmax(scores, dim=-1) @ v.float()  # (B, Hkv, G*S, D)
    return out.view(B, Hq, S, D).to(q.dtype)
