"""Checks Hq % Hkv with an assert (AssertionError) instead of raising ValueError."""

from __future__ import annotations

import math

import torch


def gqa_attention(q, k, v, causal=False):
    B, Hq, S, D = q.shape
    Hkv = k.shape[1]
    assert Hq % Hkv == 0, "Hq must be a multiple of Hkv"
    G = Hq // Hkv
    qg = q.reshape(B, Hkv, G * S, D).float()
    scores = qg @ k.float().transpose(-1, -2) / math.sqrt(D)
    if causal:
        pos = torch.arange(S, device=q.device)
        future = pos[None, :] > pos[:, None]
        scores = scores.view(B, Hkv, G, S, S).masked_fill(future, float("-inf")).view(B, Hkv, G * S, S)
    out = torch.softmax(scores, -1) @ v.float()
    return out.view(B, Hq, S, D).to(q.dtype)
