"""Assigns slots token by token (all of token 0's choices first), not rank by rank."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import Tensor


def route(logits: Tensor, k: int, capacity_factor: float) -> tuple[Tensor, Tensor]:
    """logits (T, E) -> (dispatch (T, E, C) bool, combine (T, E, C) in logits' dtype).

    C = math.ceil(capacity_factor * T * k / E); priority: rank-0 choices of all tokens in token
    order, then rank-1 choices, ...; choices beyond an expert's capacity are dropped.
    """
    T, E = logits.shape
    if not 1 <= k <= E:
        raise ValueError(f"k must be in [1, {E}], got {k}")
    capacity = math.ceil(capacity_factor * T * k / E)

    top_logits, experts = logits.topk(k, dim=-1)  # (T, k), descending
    gates = top_logits.softmax(dim=-1)

    # Priority order: rank-major, token-minor.
    flat_experts = experts.reshape(-1)  # (T*k,)
    onehot = F.one_hot(flat_experts, E)  # (k*T, E)
    slot = ((onehot.cumsum(dim=0) - 1) * onehot).sum(dim=-1)  # earlier choices of the same expert
    keep = slot < capacity

    tokens = torch.arange(T, device=logits.device).repeat_interleave(k)
    flat_gates = gates.reshape(-1)
    combine = logits.new_zeros(T, E, capacity)
    combine[tokens[keep], flat_experts[keep], slot[keep]] = flat_gates[keep]
    dispatch = torch.zeros(T, E, capacity, dtype=torch.bool, device=logits.device)
    dispatch[tokens[keep], flat_experts[keep], slot[keep]] = True
    return dispatch, combine
