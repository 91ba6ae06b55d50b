"""Symmetric per-channel (per output row) weight quantization."""

from __future__ import annotations

import torch


def quantize_per_channel(w: torch.Tensor, bits: int = 8) -> tuple[torch.Tensor, torch.Tensor]:
    """Quantize a (rows, cols) weight symmetrically with one scale per row.

    Returns (q, scale): q is int8 of w's shape with codes in [-qmax, qmax],
    qmax = 2**(bits-1) - 1; scale is float32 of shape (rows, 1), equal to
    row abs-max / qmax, or 1.0 for an all-zero row. q = clamp(round(w / scale)).
    """
    raise NotImplementedError
