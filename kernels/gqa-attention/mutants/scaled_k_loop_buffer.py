"""Writes the pre-scaled K (and V) into a (B, S, D, Hq) buffer with a loop over groups: a repeated copy in another layout."""

from __future__ import annotations

import math

import torch


def gqa_attention(q, k, v, causal=False):
    B, Hq, S, D = q.shape
    Hkv = k.shape[1]
    if Hq % Hkv != 0:
        raise ValueError("Hq must be a multiple of Hkv")
    G = Hq // Hkv
    kbuf = torch.empty(B, S, D, Hkv, G, device=q.device)
    vbuf = torch.empty(B, S, D, Hkv, G, device=q.device)
    ks = k.float().permute(0, 2, 3, 1) / math.sqrt(D)
    for g in range(G):
        kbuf[..., g] = ks
        vbuf[..., g] = v.float().permute(0, 2, 3, 1)
    kr = kbuf.view(B, S, D, Hq).permute(0, 3, 1, 2)  # (B, Hq, S, D) view
    vr = vbuf.view(B, S, D, Hq).permute(0, 3, 1, 2)
    scores = (q.float()[:, :, :, None, :] * kr[:, :, None, :, :]).sum(-1)
    if causal:
        mask = torch.ones(S, S, dtype=torch.bool, device=q.device).triu(1)
        scores = scores.masked_fill(mask, float("-inf"))
    out = (torch.softmax(scores, -1)[..., None] * vr[:, :, None, :, :]).sum(-2)
    return out.to(q.dtype)
