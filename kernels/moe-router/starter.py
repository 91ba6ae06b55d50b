"""Top-k MoE router with capacity factor and token dropping."""

from __future__ import annotations

import math

import torch
from torch import Tensor


def route(logits: Tensor, k: int, capacity_factor: float) -> tuple[Tensor, Tensor]:
    """logits (T, E) -> (dispatch (T, E, C) bool, combine (T, E, C) in logits' dtype).

    C = math.ceil(capacity_factor * T * k / E); priority: rank-0 choices of all tokens in token
    order, then rank-1 choices, ...; choices beyond an expert's capacity are dropped.
    """
    raise NotImplementedError
