"""Replaces -inf entries of x in place with a large negative number to dodge the NaN (mutates the input)."""

from __future__ import annotations

import torch


def online_softmax(x, block_size):
    x.masked_fill_(torch.isinf(x) & (x < 0), -1e4 if x.dtype != torch.float32 else -1e30)
    x32 = x.float()
    m = torch.full((*x.shape[:-1], 1), float("-inf"), device=x.device)
    s = torch.zeros_like(m)
    for i in range(0, x.shape[-1], block_size):
        blk = x32[..., i : i + block_size]
        m_new = torch.maximum(m, blk.amax(-1, keepdim=True))
        s = s * torch.exp(m - m_new) + torch.exp(blk - m_new).sum(-1, keepdim=True)
        m = m_new
    return (torch.exp(x32 - m) / s).to(x.dtype)
