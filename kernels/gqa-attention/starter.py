"""Grouped-query attention (MHA / GQA / MQA) without repeating K and V."""

from __future__ import annotations

import torch


def gqa_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False) -> torch.Tensor:
    """q: (B, Hq, S, D); k, v: (B, Hkv, S, D) with Hq % Hkv == 0 (else ValueError).

    Query head h attends with K/V head h // (Hq // Hkv); scale 1/sqrt(D); causal: query i
    sees keys j <= i. Returns (B, Hq, S, D) in q's dtype. Never materialise K or V repeated
    per query head; do not call scaled_dot_product_attention.
    """
    raise NotImplementedError
