"""Two reading passes: the max over all blocks first, then the sum of exp(x - final max) - no online rescale."""

from __future__ import annotations

import torch


def online_softmax(x, block_size):
    x32 = x.float()
    n = x.shape[-1]
    m = torch.full((*x.shape[:-1], 1), float("-inf"), device=x.device)
    for i in range(0, n, block_size):
        m = torch.maximum(m, x32[..., i : i + block_size].amax(-1, keepdim=True))
    m_safe = torch.where(torch.isinf(m), torch.zeros_like(m), m)
    s = torch.zeros_like(m)
    for i in range(0, n, block_size):
        s = s + torch.exp(x32[..., i : i + block_size] - m_safe).sum(-1, keepdim=True)
    return (torch.exp(x32 - m_safe) / s).to(x.dtype)
