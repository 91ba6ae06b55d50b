"""FlashAttention-style tiled attention forward (no S x S matrix)."""

from __future__ import annotations

import torch


def tiled_attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, block_size: int = 64, causal: bool = False
) -> torch.Tensor:
    """softmax(q @ k^T / sqrt(D)) @ v for q, k, v of shape (B, H, S, D), computed tile by tile.

    Keys/values are processed in blocks of block_size with an online softmax (running max,
    running denominator, rescaled accumulator). causal: query i sees keys j <= i.
    Never materialise an S x S tensor; do not call scaled_dot_product_attention.
    Accumulate in float32; return q's dtype.
    """
    raise NotImplementedError
