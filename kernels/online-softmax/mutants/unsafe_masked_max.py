"""Subtracts the raw running max, so a fully masked (-inf) block gives exp(-inf - -inf) = NaN."""

from __future__ import annotations

import torch


def online_softmax(x, block_size):
    x32 = x.float()
    m = torch.full((*x.shape[:-1], 1), float("-inf"), device=x.device)
    s = torch.zeros_like(m)
    for i in range(0, x.shape[-1], block_size):
        blk = x32[..., i : i + block_size]
        m_new = torch.maximum(m, blk.amax(-1, keepdim=True))
        s = s * torch.exp(m - m_new) + torch.exp(blk - m_new).sum(-1, keepdim=True)
        m = m_new
    return (torch.exp(x32 - m) / s).to(x.dtype)
