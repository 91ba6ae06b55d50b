"""Keeps the rows' used lengths in a module-level list that is never reset, so a second call packs into the first call's rows."""

from __future__ import annotations

import torch
from torch import Tensor

_used: list[int] = []  # tokens used in each row


def pack_documents(docs: list[Tensor], seq_len: int, pad_id: int = 0) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    if not docs:
        raise ValueError("no documents")
    where = []
    for i, d in enumerate(docs):
        n = d.numel()
        if not 1 <= n <= seq_len:
            raise ValueError(f"document {i} has bad length {n}")
        row = next((r for r, u in enumerate(_used) if seq_len - u >= n), None)
        if row is None:
            row = len(_used)
            _used.append(0)
        where.append((row, _used[row]))
        _used[row] += n
    dev = docs[0].device
    rows = sorted({r for r, _ in where})
    index = {r: k for k, r in enumerate(rows)}
    R = len(rows)
    ids = torch.full((R, seq_len), pad_id, dtype=torch.long, device=dev)
    pos = torch.zeros((R, seq_len), dtype=torch.long, device=dev)
    doc = torch.full((R, seq_len), -1, dtype=torch.long, device=dev)
    for i, (d, (r, s)) in enumerate(zip(docs, where)):
        n, r = d.numel(), index[r]
        ids[r, s:s + n] = d
        pos[r, s:s + n] = torch.arange(n, device=dev)
        doc[r, s:s + n] = i
    causal = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool, device=dev))
    mask = (doc[:, :, None] == doc[:, None, :]) & (doc[:, :, None] >= 0) & causal
    return ids, pos, doc, mask
