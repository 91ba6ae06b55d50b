"""Fused QKV projection (one F.linear with the concatenated wq/wk/wv weights), tril(diagonal=P) mask, SDPA."""

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

    def forward(self, x_new, cache=None):
        B, T, D = x_new.shape
        H, Dh = self.n_heads, self.head_dim
        # one matmul for q, k and v: the three weights concatenated along the output dim
        w_qkv = torch.cat([self.wq.weight, self.wk.weight, self.wv.weight], dim=0)
        qkv = F.linear(x_new, w_qkv).view(B, T, 3, H, Dh).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        P = k.shape[2] - T
        allowed = torch.ones(T, P + T, dtype=torch.bool, device=x_new.device).tril(diagonal=P)
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
        return self.wo(o.transpose(1, 2).reshape(B, T, D)), (k, v)
