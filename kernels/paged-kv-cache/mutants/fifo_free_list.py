"""Freed blocks go to the back of a FIFO free list, so reuse is not lowest-block-first."""

from __future__ import annotations

import heapq

import torch
from torch import Tensor


class PagedKVCache:
    def __init__(self, num_blocks: int, block_size: int, num_heads: int, head_dim: int,
                 dtype: torch.dtype = torch.float32, device: str | torch.device = "cpu") -> None:
        """k_cache / v_cache: (num_blocks, block_size, num_heads, head_dim)."""
        shape = (num_blocks, block_size, num_heads, head_dim)
        self.block_size = block_size
        self.k_cache = torch.zeros(shape, dtype=dtype, device=device)
        self.v_cache = torch.zeros(shape, dtype=dtype, device=device)
        self._free = list(range(num_blocks))  # a min-heap (sorted lists are valid heaps)
        self._tables: dict[int, list[int]] = {}
        self._lens: dict[int, int] = {}

    def _slots(self, table: list[int], start: int, stop: int) -> Tensor:
        """Flat slot indices (block * block_size + offset) of logical positions start..stop-1."""
        device = self.k_cache.device
        pos = torch.arange(start, stop, device=device)
        blocks = torch.tensor(table, dtype=torch.long, device=device)
        return blocks[pos // self.block_size] * self.block_size + pos % self.block_size

    def append(self, seq_id: int, k: Tensor, v: Tensor) -> None:
        """Append n tokens (k, v: (n, H, D)); RuntimeError and no change if blocks run out."""
        n = k.shape[0]
        table = self._tables.get(seq_id, [])
        old = self._lens.get(seq_id, 0)
        need = -(-(old + n) // self.block_size) - len(table)
        if need > len(self._free):
            raise RuntimeError(f"out of KV blocks: need {need}, {len(self._free)} free")
        table = table + [self._free.pop(0) for _ in range(need)]
        self._tables[seq_id], self._lens[seq_id] = table, old + n
        slots = self._slots(table, old, old + n)
        self.k_cache.view(-1, *self.k_cache.shape[2:])[slots] = k
        self.v_cache.view(-1, *self.v_cache.shape[2:])[slots] = v

    def gather(self, seq_id: int) -> tuple[Tensor, Tensor]:
        """(K, V) of shape (seq_len, H, D) in logical order, as new tensors."""
        slots = self._slots(self._tables[seq_id], 0, self._lens[seq_id])
        flat = lambda cache: cache.view(-1, *cache.shape[2:])
        return flat(self.k_cache)[slots], flat(self.v_cache)[slots]

    def free(self, seq_id: int) -> None:
        """Return the sequence's blocks to the free pool and forget it."""
        for block in self._tables.pop(seq_id):
            self._free.append(block)
        del self._lens[seq_id]

    def block_table(self, seq_id: int) -> list[int]:
        return list(self._tables[seq_id])

    def seq_len(self, seq_id: int) -> int:
        return self._lens[seq_id]

    def num_free_blocks(self) -> int:
        return len(self._free)
