"""Correct maths, but loops over rows in Python (one streaming pass per row) instead of vectorising across rows."""

from __future__ import annotations

import torch


def online_softmax(x, block_size):
    rows = x.reshape(-1, x.shape[-1]).float()
    out = torch.empty_like(rows)
    for r in range(rows.shape[0]):
        m = torch.tensor(float("-inf"), device=x.device)
        s = torch.tensor(0.0, device=x.device)
        for i in range(0, rows.shape[1], block_size):
            blk = rows[r, i : i + block_size]
            m_new = torch.maximum(m, blk.amax())
            m_safe = torch.nan_to_num(m_new, neginf=0.0)
            s = s * torch.exp(m - m_safe) + torch.exp(blk - m_safe).sum()
            m = m_new
        out[r] = torch.exp(rows[r] - m) / s
    return out.view(x.shape).to(x.dtype)
