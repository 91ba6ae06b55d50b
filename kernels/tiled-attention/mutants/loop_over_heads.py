"""Correct tiling, but loops over batch and heads in Python (one 2-D problem at a time)."""

from __future__ import annotations

import math

import torch


def _one(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, block_size: int = 64, causal: bool = False
) -> torch.Tensor:
    """softmax(q @ k^T / sqrt(D)) @ v for q, k, v of shape (B, H, S, D), computed tile by tile.

    Keys/values are processed in blocks of block_size with an online softmax (running max,
    running denominator, rescaled accumulator). causal: query i sees keys j <= i.
    Never materialise an S x S tensor; do not call scaled_dot_product_attention.
    Accumulate in float32; return q's dtype.
    """
    B, H, S, D = q.shape
    scale = 1.0 / math.sqrt(D)
    out = torch.empty(B, H, S, D, dtype=q.dtype, device=q.device)
    pos = torch.arange(S, device=q.device)
    for qs in range(0, S, block_size):
        qe = min(qs + block_size, S)
        qb = q[:, :, qs:qe].float() * scale
        m = torch.full((B, H, qe - qs, 1), float("-inf"), device=q.device)
        l = torch.zeros(B, H, qe - qs, 1, device=q.device)
        acc = torch.zeros(B, H, qe - qs, D, device=q.device)
        k_stop = qe if causal else S  # causal: keys after the block's last query are never seen
        for ks in range(0, k_stop, block_size):
            ke = min(ks + block_size, k_stop)
            s = qb @ k[:, :, ks:ke].float().transpose(-1, -2)
            if causal and ke - 1 > qs:  # tile crosses the diagonal
                s = s.masked_fill(pos[ks:ke][None, :] > pos[qs:qe][:, None], float("-inf"))
            m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True))
            p = torch.exp(s - m_new)
            alpha = torch.exp(m - m_new)
            l = l * alpha + p.sum(dim=-1, keepdim=True)
            acc = acc * alpha + p @ v[:, :, ks:ke].float()
            m = m_new
        out[:, :, qs:qe] = (acc / l).to(q.dtype)
    return out


def tiled_attention(q, k, v, block_size=64, causal=False):
    out = torch.empty_like(q)
    for b in range(q.shape[0]):
        for h in range(q.shape[1]):
            out[b : b + 1, h : h + 1] = _one(q[b : b + 1, h : h + 1], k[b : b + 1, h : h + 1], v[b : b + 1, h : h + 1], block_size, causal)
    return out
