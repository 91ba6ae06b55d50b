"""Splits heads as view(B, T, head_dim, n_heads) - the wrong channel order per head."""

from __future__ import annotations

import torch
import torch.nn.functional as F
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

    def _split(self, t: torch.Tensor) -> torch.Tensor:
        B, T, _ = t.shape
        return t.view(B, T, self.head_dim, self.n_heads).permute(0, 3, 1, 2)

    def forward(
        self, x_new: torch.Tensor, cache: tuple[torch.Tensor, torch.Tensor] | None = None
    ) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
        """x_new: (B, T, d_model); cache: None or (k, v) each (B, n_heads, P, head_dim).

        Returns (out (B, T, d_model), (k_all, v_all) each (B, n_heads, P + T, head_dim)).
        New token at absolute position P + i attends to keys 0..P + i; scale 1/sqrt(head_dim).
        """
        B, T, D = x_new.shape
        q = self._split(self.wq(x_new))
        k = self._split(self.wk(x_new))
        v = self._split(self.wv(x_new))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        P = k.shape[2] - T
        if T == 1:
            mask = None  # the single new token sees everything cached
        else:
            q_pos = torch.arange(P, P + T, device=x_new.device)
            k_pos = torch.arange(P + T, device=x_new.device)
            mask = k_pos[None, :] <= q_pos[:, None]  # (T, P+T), True = may attend
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        out = self.wo(o.transpose(1, 2).reshape(B, T, D))
        return out, (k, v)
