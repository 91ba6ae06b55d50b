"""Query blocks of 2*block_size, key tiles visited last-to-first, exp2 with log2(e)-scaled scores."""

from __future__ import annotations

import math

import torch


def tiled_attention(q, k, v, block_size=64, causal=False):
    B, H, S, D = q.shape
    c = math.log2(math.e) / math.sqrt(D)
    out = torch.empty_like(q)
    bq = 2 * block_size
    for qs in range(0, S, bq):
        qe = min(qs + bq, S)
        qt = q[:, :, qs:qe].float() * c
        m = torch.full((B, H, qe - qs, 1), -math.inf, device=q.device)
        l = torch.zeros_like(m)
        acc = torch.zeros(B, H, qe - qs, D, device=q.device)
        last = qe if causal else S
        starts = list(range(0, last, block_size))
        for ks in reversed(starts):
            ke = min(ks + block_size, last)
            s = torch.matmul(qt, k[:, :, ks:ke].float().transpose(2, 3))
            if causal:
                qi = torch.arange(qs, qe, device=q.device)[:, None]
                ki = torch.arange(ks, ke, device=q.device)[None, :]
                s = s.masked_fill(ki > qi, -math.inf)
            m_new = torch.maximum(m, s.amax(-1, keepdim=True))
            safe = torch.nan_to_num(m_new, neginf=0.0)
            p = torch.exp2(s - safe)
            alpha = torch.exp2(m - safe)
            l = alpha * l + p.sum(-1, keepdim=True)
            acc = alpha * acc + torch.matmul(p, v[:, :, ks:ke].float())
            m = m_new
        out[:, :, qs:qe] = (acc / l).to(q.dtype)
    return out
