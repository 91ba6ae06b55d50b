"""Pack documents into fixed-length rows with a block-diagonal causal document mask."""

from __future__ import annotations

import torch
from torch import Tensor


def pack_documents(docs: list[Tensor], seq_len: int, pad_id: int = 0) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """First-fit packing in input order.

    Returns (input_ids (R, L), position_ids (R, L), doc_ids (R, L) with -1 for padding,
    mask (R, L, L) bool: same document and key <= query).
    """
    if not docs:
        raise ValueError("no documents to pack")
    used: list[int] = []  # tokens used in each row
    where: list[tuple[int, int]] = []  # (row, start) of each document
    for i, doc in enumerate(docs):
        n = doc.numel()
        if not 1 <= n <= seq_len:
            raise ValueError(f"document {i} has length {n}, must be in [1, {seq_len}]")
        row = next((r for r, u in enumerate(used) if seq_len - u >= n), len(used))
        if row == len(used):
            used.append(0)
        where.append((row, used[row]))
        used[row] += n

    device = docs[0].device
    rows = len(used)
    lengths = torch.tensor([d.numel() for d in docs], device=device)
    dest_start = torch.tensor([row * seq_len + start for row, start in where], device=device)
    doc_of_tok = torch.repeat_interleave(torch.arange(len(docs), device=device), lengths)
    first_tok = torch.cumsum(lengths, 0) - lengths  # index of each document's first token in the concat
    pos = torch.arange(doc_of_tok.numel(), device=device) - first_tok[doc_of_tok]
    dest = dest_start[doc_of_tok] + pos  # flat slot of every token

    input_ids = torch.full((rows * seq_len,), pad_id, dtype=torch.long, device=device)
    position_ids = torch.zeros(rows * seq_len, dtype=torch.long, device=device)
    doc_ids = torch.full((rows * seq_len,), -1, dtype=torch.long, device=device)
    input_ids[dest] = torch.cat(docs).long()
    position_ids[dest] = pos
    doc_ids[dest] = doc_of_tok
    input_ids, position_ids, doc_ids = (t.view(rows, seq_len) for t in (input_ids, position_ids, doc_ids))

    causal = torch.ones(seq_len, seq_len, dtype=torch.bool, device=device).tril()
    mask = (doc_ids[:, :, None] == doc_ids[:, None, :]) & (doc_ids[:, :, None] >= 0) & causal
    return input_ids, position_ids, doc_ids, mask
