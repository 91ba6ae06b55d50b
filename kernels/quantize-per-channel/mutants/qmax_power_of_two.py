"""Uses 2**(bits-1) (128 at 8 bits) as qmax for the scale, so the abs-max never reaches +-127."""

from __future__ import annotations

import torch


def quantize_per_channel(w: torch.Tensor, bits: int = 8) -> tuple[torch.Tensor, torch.Tensor]:
    """Quantize a (rows, cols) weight symmetrically with one scale per row.

    Returns (q, scale): q is int8 of w's shape with codes in [-qmax, qmax],
    qmax = 2**(bits-1) - 1; scale is float32 of shape (rows, 1), equal to
    row abs-max / qmax, or 1.0 for an all-zero row. q = clamp(round(w / scale)).
    """
    qmax = 2 ** (bits - 1) - 1
    levels = 2 ** (bits - 1)
    w32 = w.float()
    absmax = w32.abs().amax(dim=1, keepdim=True)
    scale = torch.where(absmax > 0, absmax / levels, torch.ones_like(absmax))
    q = torch.round(w32 / scale).clamp_(-qmax, qmax).to(torch.int8)
    return q, scale
