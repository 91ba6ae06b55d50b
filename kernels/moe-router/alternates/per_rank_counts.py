"""Right answer by another route: full softmax renormalised over the top k, one rank at a time with running per-expert counts."""

from __future__ import annotations

import math

import torch
from torch import Tensor


def route(logits: Tensor, k: int, capacity_factor: float) -> tuple[Tensor, Tensor]:
    T, E = logits.shape
    if k < 1 or k > E:
        raise ValueError("need 1 <= k <= E")
    C = math.ceil(capacity_factor * T * k / E)
    order = torch.argsort(logits, dim=-1, descending=True)[:, :k]  # (T, k)
    chosen = torch.gather(logits, 1, order)
    gates = torch.exp(chosen - chosen.max(dim=-1, keepdim=True).values)
    gates = gates / gates.sum(dim=-1, keepdim=True)
    dispatch = torch.zeros(T, E, C, dtype=torch.bool, device=logits.device)
    combine = torch.zeros(T, E, C, dtype=logits.dtype, device=logits.device)
    used = torch.zeros(E, dtype=torch.int64, device=logits.device)
    token = torch.arange(T, device=logits.device)
    for j in range(k):
        e = order[:, j]
        same = (e[:, None] == e[None, :]).tril(-1)  # earlier tokens of this rank on the same expert
        slot = used[e] + same.sum(dim=1)
        ok = slot < C
        dispatch[token[ok], e[ok], slot[ok]] = True
        combine[token[ok], e[ok], slot[ok]] = gates[ok, j]
        used += torch.bincount(e, minlength=E)
    return dispatch, combine
