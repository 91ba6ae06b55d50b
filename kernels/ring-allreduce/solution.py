"""Ring all-reduce simulated over N ranks: reduce-scatter then all-gather."""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import Tensor

Send = Callable[[int, int, Tensor], Tensor]


def _deliver(src: int, dst: int, payload: Tensor) -> Tensor:
    """The default link: the receiver gets a copy of the payload."""
    return payload.clone()


def ring_allreduce(tensors: list[Tensor], send: Send | None = None) -> tuple[list[Tensor], list[int]]:
    """Sum-all-reduce `tensors` (one per rank) around a ring.

    Every message goes through send(src, dst, payload), which returns the tensor rank dst receives.
    Returns (results, bytes_sent): results[r] is rank r's final buffer (new tensor, input's
    shape/dtype/device), bytes_sent[r] the total bytes rank r sent. Inputs are not modified.
    """
    if not tensors:
        raise ValueError("need at least one rank")
    shape, dtype = tensors[0].shape, tensors[0].dtype
    if any(t.shape != shape or t.dtype != dtype for t in tensors):
        raise ValueError("all ranks must hold tensors of the same shape and dtype")
    send = send or _deliver
    n_ranks = len(tensors)
    bufs = [t.detach().reshape(-1).clone() for t in tensors]
    chunks = [torch.tensor_split(b, n_ranks) for b in bufs]  # views into bufs
    elem = bufs[0].element_size()
    sent = [0] * n_ranks

    # Reduce-scatter: rank r sends chunk (r - s) to r + 1, which accumulates what it receives.
    for s in range(n_ranks - 1):
        msgs = [(r, (r - s) % n_ranks, chunks[r][(r - s) % n_ranks].clone()) for r in range(n_ranks)]
        for r, c, payload in msgs:
            dst = (r + 1) % n_ranks
            chunks[dst][c].add_(send(r, dst, payload))
            sent[r] += payload.numel() * elem

    # All-gather: rank r forwards its completed chunk (r + 1 - s) to r + 1, which overwrites its copy.
    for s in range(n_ranks - 1):
        msgs = [(r, (r + 1 - s) % n_ranks, chunks[r][(r + 1 - s) % n_ranks].clone()) for r in range(n_ranks)]
        for r, c, payload in msgs:
            dst = (r + 1) % n_ranks
            chunks[dst][c].copy_(send(r, dst, payload))
            sent[r] += payload.numel() * elem

    return [b.view(shape) for b in bufs], sent
