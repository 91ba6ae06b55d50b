"""Online softmax with exp2 (log2(e)-scaled differences), flat (rows,) statistics and a blockwise output pass."""

from __future__ import annotations

import math

import torch

LOG2E = 1.0 / math.log(2.0)


def online_softmax(x: torch.Tensor, block_size: int) -> torch.Tensor:
    *lead, n = x.shape
    rows = x.reshape(-1, n)
    m = torch.full((rows.shape[0],), -math.inf, device=x.device)
    s = torch.zeros(rows.shape[0], device=x.device)
    for i in range(0, n, block_size):
        blk = rows[:, i : i + block_size].float()
        m_new = torch.maximum(m, blk.amax(dim=1))
        shift = torch.where(torch.isinf(m_new), torch.zeros_like(m_new), m_new)
        s = s * torch.exp2((m - shift) * LOG2E) + torch.exp2((blk - shift[:, None]) * LOG2E).sum(dim=1)
        m = m_new
    out = torch.empty_like(rows)
    for i in range(0, n, block_size):
        blk = rows[:, i : i + block_size].float()
        out[:, i : i + block_size] = (torch.exp2((blk - m[:, None]) * LOG2E) / s[:, None]).to(x.dtype)
    return out.view(x.shape)
