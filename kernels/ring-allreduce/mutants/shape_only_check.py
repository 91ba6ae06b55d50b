"""Validates shapes but not dtypes: float32 and float64 ranks are reduced together."""

from __future__ import annotations

import torch
from torch import Tensor


def ring_allreduce(tensors, send=None):
    if not tensors:
        raise ValueError("need at least one rank")
    shape = tensors[0].shape
    if any(t.shape != shape for t in tensors):
        raise ValueError("mismatched ranks")
    send = send or (lambda src, dst, payload: payload.clone())
    n = len(tensors)
    bufs = [t.reshape(-1).to(tensors[0].dtype, copy=True) for t in tensors]
    chunks = [torch.tensor_split(b, n) for b in bufs]
    e = bufs[0].element_size()
    sent = [0] * n
    for s in range(n - 1):
        msgs = [(r, (r - s) % n, chunks[r][(r - s) % n].clone()) for r in range(n)]
        for r, c, payload in msgs:
            chunks[(r + 1) % n][c].add_(send(r, (r + 1) % n, payload))
            sent[r] += payload.numel() * e
    for s in range(n - 1):
        msgs = [(r, (r + 1 - s) % n, chunks[r][(r + 1 - s) % n].clone()) for r in range(n)]
        for r, c, payload in msgs:
            chunks[(r + 1) % n][c].copy_(send(r, (r + 1) % n, payload))
            sent[r] += payload.numel() * e
    return [b.view(shape) for b in bufs], sent
