"""Neighbour-only but whole buffers: a chain reduce to the last rank, then the full result passed around the ring."""

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
    sent = [0] * n
    for r in range(n - 1):
        bufs[r + 1] = send(r, r + 1, bufs[r].clone()) + bufs[r + 1]
        sent[r] += bufs[r].numel() * e
    for i in range(n - 1):
        r = (n - 1 + i) % n
        bufs[(r + 1) % n] = send(r, (r + 1) % n, bufs[r].clone())
        sent[r] += bufs[r].numel() * e
    return [b.view(shape) for b in bufs], sent
