"""Uses a (B, Hkv, G, S, D) @ (B, Hkv, 1, D, S) broadcasting matmul, which copies K/V G times internally."""

from __future__ import annotations

import math

import torch


def gqa_attention(q, k, v, causal=False):
    B, Hq, S, D = q.shape
    Hkv = k.shape[1]
    if Hq % Hkv != 0:
        raise ValueError("Hq must be a multiple of Hkv")
    G = Hq // Hkv
    qg = q.float().view(B, Hkv, G, S, D)
    scores = qg @ (k.float().unsqueeze(2).transpose(-1, -2) / math.sqrt(D))
    if causal:
        mask = torch.ones(S, S, dtype=torch.bool, device=q.device).triu(1)
        scores = scores.masked_fill(mask, float("-inf"))
    out = torch.softmax(scores, -1) @ v.float().unsqueeze(2)
    return out.reshape(B, Hq, S, D).to(q.dtype)
