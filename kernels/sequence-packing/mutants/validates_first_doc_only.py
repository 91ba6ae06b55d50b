"""Validates only the first document's length (and the list being empty); later bad documents slip through."""

from __future__ import annotations

import torch
from torch import Tensor


def pack_documents(docs: list[Tensor], seq_len: int, pad_id: int = 0) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    if not docs or not 1 <= docs[0].numel() <= seq_len:
        raise ValueError("bad input")
    dev = docs[0].device
    rows: list[list[int]] = []
    used: list[int] = []
    for i, d in enumerate(docs):
        n = d.numel()
        for r in range(len(rows)):
            if used[r] + n <= seq_len:
                rows[r].append(i)
                used[r] += n
                break
        else:
            rows.append([i])
            used.append(n)
    R = len(rows)
    ids = torch.full((R, seq_len), pad_id, dtype=torch.long, device=dev)
    pos = torch.zeros((R, seq_len), dtype=torch.long, device=dev)
    doc = torch.full((R, seq_len), -1, dtype=torch.long, device=dev)
    for r, members in enumerate(rows):
        s = 0
        for i in members:
            n = docs[i].numel()
            ids[r, s:s + n] = docs[i]
            pos[r, s:s + n] = torch.arange(n, device=dev)
            doc[r, s:s + n] = i
            s += n
    causal = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool, device=dev))
    mask = (doc[:, :, None] == doc[:, None, :]) & (doc[:, None, :] >= 0) & causal
    return ids, pos, doc, mask
