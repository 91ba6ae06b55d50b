"""Fused QKV matmul that re-projects the whole remembered history every call (more rows than the new tokens)."""

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
        return t.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)

    def forward(
        self, x_new: torch.Tensor, cache: tuple[torch.Tensor, torch.Tensor] | None = None
    ) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
        """x_new: (B, T, d_model); cache: None or (k, v) each (B, n_heads, P, head_dim).

        Returns (out (B, T, d_model), (k_all, v_all) each (B, n_heads, P + T, head_dim)).
        New token at absolute position P + i attends to keys 0..P + i; scale 1/sqrt(head_dim).
        """
        B, T, D = x_new.shape
        hist = x_new if cache is None else torch.cat([self._hist[:, : cache[0].shape[2]], x_new], dim=1)
        self._hist = hist
        w = torch.cat([self.wq.weight, self.wk.weight, self.wv.weight])
        qkv = F.linear(hist, w)
        L = hist.shape[1]
        split = lambda t: t.reshape(B, L, self.n_heads, self.head_dim).transpose(1, 2)
        q = split(qkv[..., :D])[:, :, L - T :]
        k, v = split(qkv[..., D : 2 * D]), split(qkv[..., 2 * D :])
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
