"""Ring all-reduce simulated over N ranks: reduce-scatter then all-gather."""

from __future__ import annotations

import torch
from torch import Tensor


def ring_allreduce(tensors: list[Tensor]) -> tuple[list[Tensor], list[int]]:
    """Sum-all-reduce `tensors` (one per rank) around a ring.

    Returns (results, bytes_sent): results[r] is rank r's final buffer (new tensor, input's
    shape/dtype/device), bytes_sent[r] the total bytes rank r sent. Inputs are not modified.
    """
    if not tensors:
        raise ValueError("need at least one rank")
    shape, dtype = tensors[0].shape, tensors[0].dtype
    if any(t.shape != shape or t.dtype != dtype for t in tensors):
        raise ValueError("all ranks must hold tensors of the same shape and dtype")
    n_ranks = len(tensors)
    bufs = [t.detach().reshape(-1).clone() for t in tensors]
    chunks = [torch.tensor_split(b, n_ranks) for b in bufs]  # views into bufs
    elem = bufs[0].element_size()
    sent = [0] * n_ranks

    # Reduce-scatter: rank r sends chunk (r - s) to r + 1, which accumulates it.
    for s in range(n_ranks - 1):
        msgs = [(r, (r - s) % n_ranks, chunks[r][(r - s) % n_ranks].clone()) for r in range(n_ranks)]
        for r, c, payload in msgs:
            chunks[(r + 1) % n_ranks][c].add_(payload)
            sent[r] += payload.numel() * elem

    # All-gather: rank r forwards its completed chunk (r + 1 - s) to r + 1, which overwrites.
    for s in range(n_ranks - 1):
        msgs = [(r, (r + 1 - s) % n_ranks, chunks[r][(r + 1 - s) % n_ranks].clone()) for r in range(n_ranks)]
        for r, c, payload in msgs:
            chunks[(r + 1) % n_ranks][c].copy_(payload)
            sent[r] += payload.numel() * elem

    return [b.view(shape) for b in bufs], sent
