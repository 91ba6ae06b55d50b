"""Correct online softmax, but returns the float32 accumulator instead of casting back to x.dtype."""

from __future__ import annotations

import torch


def online_softmax(x, block_size):
    x32 = x.float()
    m = torch.full((*x.shape[:-1], 1), float("-inf"), device=x.device)
    s = torch.zeros_like(m)
    for i in range(0, x.shape[-1], block_size):
        blk = x32[..., i : i + block_size]
        m_new = torch.maximum(m, blk.amax(-1, keepdim=True))
        m_safe = torch.nan_to_num(m_new, neginf=0.0)
        s = s * torch.exp(m - m_safe) + torch.exp(blk - m_safe).sum(-1, keepdim=True)
        m = m_new
    return torch.exp(x32 - m) / s
