"""Maps query head h to K/V head h % Hkv (what k.repeat(1, G, 1, 1) lines up), not h // G."""

from __future__ import annotations

import math

import torch


def gqa_attention(q, k, v, causal=False):
    B, Hq, S, D = q.shape
    Hkv = k.shape[1]
    if Hq % Hkv != 0:
        raise ValueError("Hq must be a multiple of Hkv")
    G = Hq // Hkv
    qg = q.float().view(B, G, Hkv, S, D).transpose(1, 2).reshape(B, Hkv, G * S, D)
    scores = qg @ k.float().transpose(-1, -2) / math.sqrt(D)
    if causal:
        pos = torch.arange(S, device=q.device)
        future = (pos[None, :] > pos[:, None]).repeat(G, 1)
        scores = scores.masked_fill(future, float("-inf"))
    out = torch.softmax(scores, -1) @ v.float()
    return out.view(B, Hkv, G, S, D).transpose(1, 2).reshape(B, Hq, S, D).to(q.dtype)
