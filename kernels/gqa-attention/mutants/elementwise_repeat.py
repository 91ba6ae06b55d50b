"""Repeats every K/V element G times in place along the last axis ((..., D, G) copy) and reads it with a strided view."""

from __future__ import annotations

import math

import torch


def gqa_attention(q, k, v, causal=False):
    B, Hq, S, D = q.shape
    Hkv = k.shape[1]
    if Hq % Hkv != 0:
        raise ValueError("Hq must be a multiple of Hkv")
    G = Hq // Hkv
    # (B, Hkv, S, D, G) buffer: innermost axis repeats each element; permute gives (B, Hkv, G, S, D) as a view
    kr = k.float().unsqueeze(-1).expand(B, Hkv, S, D, G).contiguous().permute(0, 1, 4, 2, 3)
    vr = v.float().unsqueeze(-1).expand(B, Hkv, S, D, G).contiguous().permute(0, 1, 4, 2, 3)
    qg = q.float().view(B, Hkv, G, S, D)
    scores = (qg[..., :, None, :] * kr[..., None, :, :]).sum(-1) / math.sqrt(D)
    if causal:
        mask = torch.ones(S, S, dtype=torch.bool, device=q.device).triu(1)
        scores = scores.masked_fill(mask, float("-inf"))
    out = (torch.softmax(scores, -1)[..., None] * vr[..., None, :, :]).sum(-2)
    return out.reshape(B, Hq, S, D).to(q.dtype)
