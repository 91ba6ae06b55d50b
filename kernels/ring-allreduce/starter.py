"""Ring all-reduce simulated over N ranks: reduce-scatter then all-gather."""

from __future__ import annotations

import torch
from torch import Tensor


def ring_allreduce(tensors: list[Tensor]) -> tuple[list[Tensor], list[int]]:
    """Sum-all-reduce `tensors` (one per rank) around a ring.

    Returns (results, bytes_sent): results[r] is rank r's final buffer (new tensor, input's
    shape/dtype/device), bytes_sent[r] the total bytes rank r sent. Inputs are not modified.
    """
    raise NotImplementedError
