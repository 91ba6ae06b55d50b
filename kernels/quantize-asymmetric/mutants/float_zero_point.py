"""Returns the zero-point as float32 instead of uint8."""

from __future__ import annotations

import torch


def quantize_asymmetric(
    w: torch.Tensor, bits: int = 4, group_size: int = 128
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Quantize a (rows, cols) weight in groups of `group_size` consecutive elements per row.

    Returns (q, scale, zero_point): q uint8 (rows, cols) with codes in [0, 2**bits - 1];
    scale float32 and zero_point uint8, both (rows, cols // group_size).
    Per group: lo = min(min, 0), hi = max(max, 0); scale = (hi - lo) / qmax (1.0 if hi == lo);
    zero_point = clamp(round(-lo / scale), 0, qmax); q = clamp(round(w / scale) + zero_point, 0, qmax).
    Raise ValueError if cols is not a multiple of group_size.
    """
    rows, cols = w.shape
    if cols % group_size != 0:
        raise ValueError(f"cols={cols} is not a multiple of group_size={group_size}")
    qmax = 2**bits - 1
    g = w.float().reshape(rows, cols // group_size, group_size)
    lo = g.amin(dim=-1).clamp(max=0.0)
    hi = g.amax(dim=-1).clamp(min=0.0)
    span = hi - lo
    scale = torch.where(span > 0, span / qmax, torch.ones_like(span))
    zero_point = torch.round(-lo / scale).clamp(0, qmax)
    q = (torch.round(g / scale.unsqueeze(-1)) + zero_point.unsqueeze(-1)).clamp(0, qmax)
    return q.to(torch.uint8).reshape(rows, cols), scale, zero_point


def dequantize_asymmetric(
    q: torch.Tensor, scale: torch.Tensor, zero_point: torch.Tensor, group_size: int
) -> torch.Tensor:
    """Return float32 (q - zero_point) * scale, per group, with shape (rows, cols)."""
    rows, cols = q.shape
    g = q.float().reshape(rows, cols // group_size, group_size)
    out = (g - zero_point.float().unsqueeze(-1)) * scale.float().unsqueeze(-1)
    return out.reshape(rows, cols)
