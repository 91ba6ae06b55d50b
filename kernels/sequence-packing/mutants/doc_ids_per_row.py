"""doc_ids number the documents within each row (0, 1, ...) instead of by their index in docs."""

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
        row = next((r for r, u in enumerate(used) if seq_len - u >= n), None)
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
    k_in_row = [0] * R
    for d, (r, s) in zip(docs, where):
        n = d.numel()
        i = k_in_row[r]
        k_in_row[r] += 1
        ids[r, s:s + n] = d
        pos[r, s:s + n] = torch.arange(n, device=dev)
        doc[r, s:s + n] = i
    causal = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool, device=dev))
    mask = (doc[:, :, None] == doc[:, None, :]) & (doc[:, :, None] >= 0) & causal
    return ids, pos, doc, mask
