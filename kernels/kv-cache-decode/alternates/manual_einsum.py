"""Separate projections, einsum attention in float32 with an additive -inf mask from absolute positions."""

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

        def heads(t):
            return t.reshape(B, T, H, Dh).permute(0, 2, 1, 3)

        q, k, v = heads(self.wq(x_new)), heads(self.wk(x_new)), heads(self.wv(x_new))
        if cache is not None:
            k, v = torch.cat((cache[0], k), 2), torch.cat((cache[1], v), 2)
        L = k.shape[2]
        scores = torch.einsum("bhtd,bhld->bhtl", q.float(), k.float()) * Dh**-0.5
        future = torch.arange(L, device=x_new.device)[None, :] > torch.arange(L - T, L, device=x_new.device)[:, None]
        scores = scores + torch.zeros(T, L, device=x_new.device).masked_fill(future, float("-inf"))
        o = torch.einsum("bhtl,bhld->bhtd", scores.softmax(-1), v.float()).to(x_new.dtype)
        return self.wo(o.permute(0, 2, 1, 3).reshape(B, T, D)), (k, v)
