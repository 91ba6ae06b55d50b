"""Packs with a per-row list of documents, fills rows by torch.cat, and derives the mask from position_ids."""

from __future__ import annotations

import torch
from torch import Tensor


def pack_documents(docs: list[Tensor], seq_len: int, pad_id: int = 0) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    if len(docs) == 0:
        raise ValueError("docs is empty")
    for i, d in enumerate(docs):
        if d.numel() == 0 or d.numel() > seq_len:
            raise ValueError(f"document {i}: length {d.numel()} not in [1, {seq_len}]")
    rows: list[list[int]] = []
    free: list[int] = []
    for i, d in enumerate(docs):
        for r in range(len(rows)):
            if free[r] >= d.numel():
                rows[r].append(i)
                free[r] -= d.numel()
                break
        else:
            rows.append([i])
            free.append(seq_len - d.numel())
    dev = docs[0].device
    ids_rows, pos_rows, doc_rows = [], [], []
    for r, members in enumerate(rows):
        pad = free[r]
        ids_rows.append(torch.cat([docs[i].to(torch.long) for i in members]
                                  + [torch.full((pad,), pad_id, dtype=torch.long, device=dev)]))
        pos_rows.append(torch.cat([torch.arange(docs[i].numel(), device=dev) for i in members]
                                  + [torch.zeros(pad, dtype=torch.long, device=dev)]))
        doc_rows.append(torch.cat([torch.full((docs[i].numel(),), i, dtype=torch.long, device=dev) for i in members]
                                  + [torch.full((pad,), -1, dtype=torch.long, device=dev)]))
    input_ids, position_ids, doc_ids = torch.stack(ids_rows), torch.stack(pos_rows), torch.stack(doc_rows)
    # query i sees key j iff j is in [i - position_ids[i], i]: its own document's start up to itself
    i = torch.arange(seq_len, device=dev)
    lag = i[:, None] - i[None, :]  # i - j
    mask = (lag >= 0) & (lag <= position_ids[:, :, None]) & (doc_ids >= 0)[:, :, None]
    return input_ids, position_ids, doc_ids, mask
