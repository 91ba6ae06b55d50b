"""Materialises K/V repeated per query head in a (B, S, Hq, D) layout (repeat_interleave after a transpose)."""

from __future__ import annotations

import math

import torch


def gqa_attention(q, k, v, causal=False):
    B, Hq, S, D = q.shape
    Hkv = k.shape[1]
    if Hq % Hkv != 0:
        raise ValueError("Hq must be a multiple of Hkv")
    G = Hq // Hkv
    # "sequence-major" copy: (B, S, Hkv, D) -> (B, S, Hq, D), then a transposed view
    kr = k.float().transpose(1, 2).repeat_interleave(G, dim=2).transpose(1, 2)
    vr = v.float().transpose(1, 2).repeat_interleave(G, dim=2).transpose(1, 2)
    scores = (q.float()[:, :, :, None, :] * kr[:, :, None, :, :]).sum(-1) / math.sqrt(D)
    if causal:
        mask = torch.ones(S, S, dtype=torch.bool, device=q.device).triu(1)
        scores = scores.masked_fill(mask, float("-inf"))
    out = (torch.softmax(scores, -1)[..., None] * vr[:, :, None, :, :]).sum(-2)
    return out.to(q.dtype)
