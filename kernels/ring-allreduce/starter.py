"""Ring all-reduce simulated over N ranks: reduce-scatter then all-gather."""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import Tensor

Send = Callable[[int, int, Tensor], Tensor]


def ring_allreduce(tensors: list[Tensor], send: Send | None = None) -> tuple[list[Tensor], list[int]]:
    """Sum-all-reduce `tensors` (one per rank) around a ring.

    Every message goes through send(src, dst, payload), which returns the tensor rank dst receives
    (default: a copy of the payload).
    Returns (results, bytes_sent): results[r] is rank r's final buffer (new tensor, input's
    shape/dtype/device), bytes_sent[r] the total bytes rank r sent. Inputs are not modified.
    """
    raise NotImplementedError
