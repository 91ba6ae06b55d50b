"""Paged KV cache: fixed-size blocks, lowest-free-block allocator, per-sequence block tables."""

from __future__ import annotations

import torch
from torch import Tensor


class PagedKVCache:
    def __init__(self, num_blocks: int, block_size: int, num_heads: int, head_dim: int,
                 dtype: torch.dtype = torch.float32, device: str | torch.device = "cpu") -> None:
        """k_cache / v_cache: (num_blocks, block_size, num_heads, head_dim)."""
        raise NotImplementedError

    def append(self, seq_id: int, k: Tensor, v: Tensor) -> None:
        """Append n tokens (k, v: (n, H, D)); RuntimeError and no change if blocks run out."""
        raise NotImplementedError

    def gather(self, seq_id: int) -> tuple[Tensor, Tensor]:
        """(K, V) of shape (seq_len, H, D) in logical order, as new tensors."""
        raise NotImplementedError

    def free(self, seq_id: int) -> None:
        """Return the sequence's blocks to the free pool and forget it."""
        raise NotImplementedError

    def block_table(self, seq_id: int) -> list[int]:
        raise NotImplementedError

    def seq_len(self, seq_id: int) -> int:
        raise NotImplementedError

    def num_free_blocks(self) -> int:
        raise NotImplementedError
