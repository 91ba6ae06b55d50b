"""Single-layer causal self-attention with a KV cache for incremental decoding."""

from __future__ import annotations

import torch
import torch.nn.functional as F  # noqa: F401
from torch import nn


class CachedSelfAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int):
        super().__init__()
        assert d_model % n_heads == 0
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.wq = nn.Linear(d_model, d_model, bias=False)
        self.wk = nn.Linear(d_model, d_model, bias=False)
        self.wv = nn.Linear(d_model, d_model, bias=False)
        self.wo = nn.Linear(d_model, d_model, bias=False)

    def forward(
        self, x_new: torch.Tensor, cache: tuple[torch.Tensor, torch.Tensor] | None = None
    ) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
        """x_new: (B, T, d_model); cache: None or (k, v) each (B, n_heads, P, head_dim).

        Returns (out (B, T, d_model), (k_all, v_all) each (B, n_heads, P + T, head_dim)).
        New token at absolute position P + i attends to keys 0..P + i; scale 1/sqrt(head_dim).
        """
        raise NotImplementedError
