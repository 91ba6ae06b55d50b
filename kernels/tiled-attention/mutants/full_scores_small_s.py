"""Materialises the full S x S score matrix whenever S is small (<= 512) and tiles only for long sequences."""

from __future__ import annotations

import math

import torch


def tiled_attention(q, k, v, block_size=64, causal=False):
    B, H, S, D = q.shape
    if S <= 512:
        s = q.float() @ k.float().transpose(-1, -2) / math.sqrt(D)
        if causal:
            s = s.masked_fill(torch.ones(S, S, dtype=torch.bool, device=q.device).triu(1), -math.inf)
        return (torch.softmax(s, -1) @ v.float()).to(q.dtype)
    out = torch.empty_like(q)
    for qs in range(0, S, block_size):
        qe = min(qs + block_size, S)
        qb = q[:, :, qs:qe].float() / math.sqrt(D)
        m = torch.full((B, H, qe - qs, 1), -math.inf, device=q.device)
        l = torch.zeros_like(m)
        acc = torch.zeros(B, H, qe - qs, D, device=q.device)
        for ks in range(0, qe if causal else S, block_size):
            ke = min(ks + block_size, qe if causal else S)
            s = qb @ k[:, :, ks:ke].float().transpose(-1, -2)
            if causal:
                qi = torch.arange(qs, qe, device=q.device)[:, None]
                s = s.masked_fill(torch.arange(ks, ke, device=q.device)[None, :] > qi, -math.inf)
            m_new = torch.maximum(m, s.amax(-1, keepdim=True))
            p = torch.exp(s - m_new)
            alpha = torch.exp(m - m_new)
            l = l * alpha + p.sum(-1, keepdim=True)
            acc = acc * alpha + p @ v[:, :, ks:ke].float()
            m = m_new
        out[:, :, qs:qe] = (acc / l).to(q.dtype)
    return out
