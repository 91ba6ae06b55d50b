"""Tiles keys but takes the row max over all key tiles first, then recomputes the tiles for exp/sum/PV (no rescale)."""

from __future__ import annotations

import math

import torch


def _tile(q_blk, k, ks, ke, qs, qe, causal):
    s = q_blk @ k[:, :, ks:ke].float().transpose(-1, -2)
    if causal:
        qi = torch.arange(qs, qe, device=s.device)[:, None]
        s = s.masked_fill(torch.arange(ks, ke, device=s.device)[None, :] > qi, -math.inf)
    return s


def tiled_attention(q, k, v, block_size=64, causal=False):
    B, H, S, D = q.shape
    out = torch.empty_like(q)
    for qs in range(0, S, block_size):
        qe = min(qs + block_size, S)
        qb = q[:, :, qs:qe].float() / math.sqrt(D)
        stop = qe if causal else S
        m = torch.full((B, H, qe - qs, 1), -math.inf, device=q.device)
        for ks in range(0, stop, block_size):
            m = torch.maximum(m, _tile(qb, k, ks, min(ks + block_size, stop), qs, qe, causal).amax(-1, keepdim=True))
        l = torch.zeros_like(m)
        acc = torch.zeros(B, H, qe - qs, D, device=q.device)
        for ks in range(0, stop, block_size):
            ke = min(ks + block_size, stop)
            p = torch.exp(_tile(qb, k, ks, ke, qs, qe, causal) - m)
            l = l + p.sum(-1, keepdim=True)
            acc = acc + p @ v[:, :, ks:ke].float()
        out[:, :, qs:qe] = (acc / l).to(q.dtype)
    return out
