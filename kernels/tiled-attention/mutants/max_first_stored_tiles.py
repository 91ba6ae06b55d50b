"""Keeps one query block's score tiles, takes their global row max first, then exponentiates them (no online rescale)."""

from __future__ import annotations

import math

import torch


def tiled_attention(q, k, v, block_size=64, causal=False):
    B, H, S, D = q.shape
    out = torch.empty_like(q)
    for qs in range(0, S, block_size):
        qe = min(qs + block_size, S)
        qb = q[:, :, qs:qe].float() / math.sqrt(D)
        stop = qe if causal else S
        tiles, m = [], torch.full((B, H, qe - qs, 1), -math.inf, device=q.device)
        for ks in range(0, stop, block_size):
            ke = min(ks + block_size, stop)
            s = qb @ k[:, :, ks:ke].float().transpose(-1, -2)
            if causal:
                qi = torch.arange(qs, qe, device=q.device)[:, None]
                s = s.masked_fill(torch.arange(ks, ke, device=q.device)[None, :] > qi, -math.inf)
            tiles.append((ks, ke, s))
            m = torch.maximum(m, s.amax(-1, keepdim=True))
        l = torch.zeros_like(m)
        acc = torch.zeros(B, H, qe - qs, D, device=q.device)
        for ks, ke, s in tiles:
            p = torch.exp(s - m)
            l = l + p.sum(-1, keepdim=True)
            acc = acc + p @ v[:, :, ks:ke].float()
        out[:, :, qs:qe] = (acc / l).to(q.dtype)
    return out
