"""Single-pass streaming (online) softmax over the last dimension."""

from __future__ import annotations

import torch


def online_softmax(x: torch.Tensor, block_size: int) -> torch.Tensor:
    """Return torch.softmax(x, dim=-1), reading the last dim in chunks of block_size.

    One pass keeps a running max and a running sum of exp(x - max) per row (rescaling the
    sum when the max grows); a second elementwise pass writes exp(x - max) / sum.
    No reduction may combine more than block_size elements of a row. Accumulate in
    float32; return x's dtype. x may contain -inf (whole blocks may be -inf).
    """
    x32 = x.float()
    stat_shape = (*x.shape[:-1], 1)
    m = torch.full(stat_shape, float("-inf"), device=x.device)
    s = torch.zeros(stat_shape, device=x.device)
    for start in range(0, x.shape[-1], block_size):
        blk = x32[..., start : start + block_size]
        m_new = torch.maximum(m, blk.amax(dim=-1, keepdim=True))
        # Rows that are all -inf so far: shift by 0 so exp(-inf - 0) = 0 instead of NaN.
        m_safe = torch.where(m_new == float("-inf"), torch.zeros_like(m_new), m_new)
        s = s * torch.exp(m - m_safe) + torch.exp(blk - m_safe).sum(dim=-1, keepdim=True)
        m = m_new
    return (torch.exp(x32 - m) / s).to(x.dtype)
