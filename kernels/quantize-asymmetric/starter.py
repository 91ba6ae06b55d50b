"""Asymmetric (affine) group-wise quantization with zero-points."""

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
    raise NotImplementedError


def dequantize_asymmetric(
    q: torch.Tensor, scale: torch.Tensor, zero_point: torch.Tensor, group_size: int
) -> torch.Tensor:
    """Return float32 (q - zero_point) * scale, per group, with shape (rows, cols)."""
    raise NotImplementedError
