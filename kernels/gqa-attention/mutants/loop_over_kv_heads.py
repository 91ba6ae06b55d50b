"""Loops over batch and K/V heads in Python (one small matmul per head) instead of vectorising."""

from __future__ import annotations

import math

import torch


def gqa_attention(q, k, v, causal=False):
    B, Hq, S, D = q.shape
    Hkv = k.shape[1]
    if Hq % Hkv != 0:
        raise ValueError("Hq must be a multiple of Hkv")
    G = Hq // Hkv
    out = torch.empty(B, Hq, S, D, dtype=q.dtype, device=q.device)
    future = torch.ones(S, S, dtype=torch.bool, device=q.device).triu(1)
    for b in range(B):
        for h in range(Hkv):
            qh = q[b, h * G : (h + 1) * G].float()  # (G, S, D)
            s = qh @ k[b, h].float().T / math.sqrt(D)
            if causal:
                s = s.masked_fill(future, float("-inf"))
            out[b, h * G : (h + 1) * G] = (torch.softmax(s, -1) @ v[b, h].float()).to(q.dtype)
    return out
