"""Next-fit: only tries the last open row, never goes back to an earlier one."""

from __future__ import annotations

import torch
from torch import Tensor


def pack_documents(docs: list[Tensor], seq_len: int, pad_id: int = 0) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    if not docs:
        raise ValueError("no documents")
    used: list[int] = []
    where = []
    for i, d in enumerate(docs):
        n = d.numel()
        if n < 1 or n > seq_len:
            raise ValueError(f"document {i} has bad length {n}")
        row = len(used) - 1 if used and seq_len - used[-1] >= n else None
        if row is None:
            row = len(used)
            used.append(0)
        where.append((row, used[row]))
        used[row] += n
    dev = docs[0].device
    R = len(used)
    ids = torch.full((R, seq_len), pad_id, dtype=torch.long, device=dev)
    pos = torch.zeros((R, seq_len), dtype=torch.long, device=dev)
    doc = torch.full((R, seq_len), -1, dtype=torch.long, device=dev)
    for i, (d, (r, s)) in enumerate(zip(docs, where)):
        n = d.numel()
        ids[r, s:s + n] = d
        pos[r, s:s + n] = torch.arange(n, device=dev)
        doc[r, s:s + n] = i
    causal = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool, device=dev))
    mask = (doc[:, :, None] == doc[:, None, :]) & (doc[:, :, None] >= 0) & causal
    return ids, pos, doc, mask
