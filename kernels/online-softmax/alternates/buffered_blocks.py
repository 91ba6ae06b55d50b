"""Flash-style: one pass writes exp(block - block max) into the output and updates (m, l); a second pass rescales each block."""

from __future__ import annotations

import torch


def online_softmax(x: torch.Tensor, block_size: int) -> torch.Tensor:
    n = x.shape[-1]
    out = torch.empty(x.shape, dtype=torch.float32, device=x.device)
    m = torch.full((*x.shape[:-1], 1), float("-inf"), device=x.device)
    l = torch.zeros_like(m)
    block_max = []
    for i in range(0, n, block_size):
        blk = x[..., i : i + block_size].float()
        mb = blk.max(dim=-1, keepdim=True).values
        mb_safe = torch.nan_to_num(mb, neginf=0.0)  # an all -inf block: exp(-inf - 0) = 0
        e = torch.exp(blk - mb_safe)
        out[..., i : i + block_size] = e
        m_new = torch.maximum(m, mb)
        m_new_safe = torch.nan_to_num(m_new, neginf=0.0)
        l = l * torch.exp(m - m_new_safe) + e.sum(dim=-1, keepdim=True) * torch.exp(mb_safe - m_new_safe)
        m = m_new
        block_max.append(mb_safe)
    m_safe = torch.nan_to_num(m, neginf=0.0)
    for j, i in enumerate(range(0, n, block_size)):
        out[..., i : i + block_size] *= torch.exp(block_max[j] - m_safe) / l
    return out.to(x.dtype)
