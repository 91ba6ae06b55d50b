"""Renormalises a token's kept gates to sum to 1 after dropping."""

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
    flat_experts = experts.T.reshape(-1)  # (k*T,)
    onehot = F.one_hot(flat_experts, E)  # (k*T, E)
    slot = ((onehot.cumsum(dim=0) - 1) * onehot).sum(dim=-1)  # earlier choices of the same expert
    keep = slot < capacity

    tokens = torch.arange(T, device=logits.device).repeat(k)
    flat_gates = gates.T.reshape(-1)
    combine = logits.new_zeros(T, E, capacity)
    kept_mass = torch.zeros(T, dtype=logits.dtype, device=logits.device).index_add_(0, tokens[keep], flat_gates[keep])
    combine[tokens[keep], flat_experts[keep], slot[keep]] = flat_gates[keep] / kept_mass[tokens[keep]]
    dispatch = torch.zeros(T, E, capacity, dtype=torch.bool, device=logits.device)
    dispatch[tokens[keep], flat_experts[keep], slot[keep]] = True
    return dispatch, combine
