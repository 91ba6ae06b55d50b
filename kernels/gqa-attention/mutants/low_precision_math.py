"""Computes scores, softmax and P @ V in the input dtype (no float32 accumulation for fp16/bf16)."""

from __future__ import annotations

import math

import torch


def gqa_attention(q, k, v, causal=False):
    B, Hq, S, D = q.shape
    Hkv = k.shape[1]
    if Hq % Hkv != 0:
        raise ValueError("Hq must be a multiple of Hkv")
    G = Hq // Hkv
    qg = q.reshape(B, Hkv, G * S, D)
    scores = qg @ k.transpose(-1, -2) / math.sqrt(D)
    if causal:
        pos = torch.arange(S, device=q.device)
        future = pos[None, :] > pos[:, None]
        scores = scores.view(B, Hkv, G, S, S).masked_fill(future, float("-inf")).view(B, Hkv, G * S, S)
    p = torch.exp(scores - scores.amax(-1, keepdim=True))
    p = p / p.sum(-1, keepdim=True)
    return (p @ v).view(B, Hq, S, D)
