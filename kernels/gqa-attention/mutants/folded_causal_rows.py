"""Folds G into the row dim but builds the causal mask from the folded row index r instead of r % S."""

from __future__ import annotations

import math

import torch


def gqa_attention(q, k, v, causal=False):
    B, Hq, S, D = q.shape
    Hkv = k.shape[1]
    if Hq % Hkv != 0:
        raise ValueError("Hq must be a multiple of Hkv")
    G = Hq // Hkv
    qg = q.float().reshape(B, Hkv, G * S, D)
    scores = qg @ k.float().transpose(-1, -2) / math.sqrt(D)
    if causal:
        rows = torch.arange(G * S, device=q.device)
        cols = torch.arange(S, device=q.device)
        scores = scores.masked_fill(cols[None, :] > rows[:, None], float("-inf"))
    out = torch.softmax(scores, -1) @ v.float()
    return out.view(B, Hq, S, D).to(q.dtype)
