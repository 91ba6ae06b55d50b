"""Streams the max, computes exp(x - max) on the whole row, then sums that buffer block by block (no rescale)."""

from __future__ import annotations

import torch


def online_softmax(x, block_size):
    x32 = x.float()
    n = x.shape[-1]
    m = torch.full((*x.shape[:-1], 1), float("-inf"), device=x.device)
    for i in range(0, n, block_size):
        m = torch.maximum(m, x32[..., i : i + block_size].amax(-1, keepdim=True))
    e = torch.exp(x32 - torch.nan_to_num(m, neginf=0.0))
    s = torch.zeros_like(m)
    for i in range(0, n, block_size):
        s = s + e[..., i : i + block_size].sum(-1, keepdim=True)
    return (e / s).to(x.dtype)
