"""Free blocks as a set (min() picks the lowest), writes block by block, gather by cat of per-block slices."""

from __future__ import annotations

import torch
from torch import Tensor


class PagedKVCache:
    def __init__(self, num_blocks, block_size, num_heads, head_dim, dtype=torch.float32, device="cpu"):
        self.bs = block_size
        self.k_cache = torch.empty(num_blocks, block_size, num_heads, head_dim, dtype=dtype, device=device)
        self.v_cache = torch.empty_like(self.k_cache)
        self.free_blocks = set(range(num_blocks))
        self.seqs: dict[int, tuple[list[int], int]] = {}

    def append(self, seq_id: int, k: Tensor, v: Tensor) -> None:
        table, length = self.seqs.get(seq_id, ([], 0))
        n = k.shape[0]
        slack = len(table) * self.bs - length
        extra = max(0, -(-(n - slack) // self.bs))
        if extra > len(self.free_blocks):
            raise RuntimeError("not enough free KV blocks")
        table = list(table)
        for _ in range(extra):
            b = min(self.free_blocks)
            self.free_blocks.remove(b)
            table.append(b)
        done = 0
        while done < n:  # one slice copy per block touched
            pos = length + done
            blk, off = table[pos // self.bs], pos % self.bs
            take = min(self.bs - off, n - done)
            self.k_cache[blk, off : off + take] = k[done : done + take]
            self.v_cache[blk, off : off + take] = v[done : done + take]
            done += take
        self.seqs[seq_id] = (table, length + n)

    def gather(self, seq_id: int) -> tuple[Tensor, Tensor]:
        table, length = self.seqs[seq_id]
        ks = [self.k_cache[b] for b in table]
        vs = [self.v_cache[b] for b in table]
        k = torch.cat(ks)[:length] if ks else self.k_cache[:0, 0].clone()
        v = torch.cat(vs)[:length] if vs else self.v_cache[:0, 0].clone()
        return k, v

    def free(self, seq_id: int) -> None:
        table, _ = self.seqs.pop(seq_id)
        self.free_blocks.update(table)

    def block_table(self, seq_id: int) -> list[int]:
        return list(self.seqs[seq_id][0])

    def seq_len(self, seq_id: int) -> int:
        return self.seqs[seq_id][1]

    def num_free_blocks(self) -> int:
        return len(self.free_blocks)
