"""Key tiles in the outer (only) loop, all S queries at once per tile (S x block_size tiles), flat running stats."""

from __future__ import annotations

import math

import torch


def tiled_attention(q, k, v, block_size=64, causal=False):
    B, H, S, D = q.shape
    qf = q.float() / math.sqrt(D)
    m = torch.full((B, H, S), -math.inf, device=q.device)
    l = torch.zeros(B, H, S, device=q.device)
    acc = torch.zeros(B, H, S, D, device=q.device)
    rows = torch.arange(S, device=q.device)
    for ks in range(0, S, block_size):
        kt = k[:, :, ks : ks + block_size].float()
        vt = v[:, :, ks : ks + block_size].float()
        s = torch.einsum("bhqd,bhkd->bhqk", qf, kt)
        if causal:
            cols = torch.arange(ks, ks + kt.shape[2], device=q.device)
            s = torch.where(cols[None, :] <= rows[:, None], s, -math.inf)
        m_new = torch.maximum(m, s.amax(-1))
        safe = torch.where(m_new == -math.inf, 0.0, m_new)  # queries that see no key of this tile yet
        p = torch.exp(s - safe[..., None])
        alpha = torch.exp(m - safe)
        l = l * alpha + p.sum(-1)
        acc = acc * alpha[..., None] + torch.einsum("bhqk,bhkd->bhqd", p, vt)
        m = m_new
    return (acc / l[..., None]).to(q.dtype)
