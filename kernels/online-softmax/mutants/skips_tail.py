"""Streams only the whole blocks: a tail shorter than block_size never enters the running max/sum."""

from __future__ import annotations

import torch


def online_softmax(x, block_size):
    x32 = x.float()
    n = x.shape[-1]
    m = torch.full((*x.shape[:-1], 1), float("-inf"), device=x.device)
    s = torch.zeros_like(m)
    for i in range(0, n - block_size + 1, block_size):
        blk = x32[..., i : i + block_size]
        m_new = torch.maximum(m, blk.amax(-1, keepdim=True))
        m_safe = torch.nan_to_num(m_new, neginf=0.0)
        s = s * torch.exp(m - m_safe) + torch.exp(blk - m_safe).sum(-1, keepdim=True)
        m = m_new
    return (torch.exp(x32 - torch.nan_to_num(m, neginf=0.0)) / s).to(x.dtype)
