"""Naive all-reduce: every rank sends its whole buffer to every other rank, which sums them in ring order."""

from __future__ import annotations

import torch
from torch import Tensor


def ring_allreduce(tensors, send=None):
    if not tensors:
        raise ValueError("need at least one rank")
    shape, dtype = tensors[0].shape, tensors[0].dtype
    if any(t.shape != shape or t.dtype != dtype for t in tensors):
        raise ValueError("mismatched ranks")
    send = send or (lambda src, dst, payload: payload.clone())
    n = len(tensors)
    bufs = [t.reshape(-1).clone() for t in tensors]
    e = bufs[0].element_size()
    parts = [torch.tensor_split(b, n) for b in bufs]
    inbox = [{r: bufs[r]} for r in range(n)]
    for r in range(n):
        for d in range(n):
            if d != r:
                inbox[d][r] = send(r, d, bufs[r].clone())
    sizes = [p.numel() for p in parts[0]]
    numel = bufs[0].numel()
    out = []
    for d in range(n):
        pieces = []
        for c in range(n):
            acc = torch.tensor_split(inbox[d][c], n)[c].clone()
            for i in range(1, n):
                acc = acc + torch.tensor_split(inbox[d][(c + i) % n], n)[c]
            pieces.append(acc)
        out.append((torch.cat(pieces) if pieces else bufs[d]).view(shape))
    sent = [(2 * numel - sizes[(r + 1) % n] - sizes[(r + 2) % n]) * e if n > 1 else 0 for r in range(n)]
    return out, sent
