"""Runs the whole block in float32 (upcasts x and the weights) and returns float32 whatever the input dtype."""

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
        x = x.float()
        return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps) * self.weight.float()


def lin(layer: nn.Linear, t: Tensor) -> Tensor:
    return F.linear(t, layer.weight.float())


class DecoderBlock(nn.Module):
    def __init__(self, d_model: int, n_heads: int, d_ff: int, eps: float = 1e-5) -> None:
        super().__init__()
        if d_model % n_heads != 0:
            raise ValueError("d_model must be divisible by n_heads")
        self.n_heads, self.head_dim = n_heads, d_model // n_heads
        self.norm1 = RMSNorm(d_model, eps)
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.proj = nn.Linear(d_model, d_model, bias=False)
        self.norm2 = RMSNorm(d_model, eps)
        self.w_gate = nn.Linear(d_model, d_ff, bias=False)
        self.w_up = nn.Linear(d_model, d_ff, bias=False)
        self.w_down = nn.Linear(d_ff, d_model, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        x = x.float()
        B, S, D = x.shape
        q, k, v = (t.view(B, S, self.n_heads, self.head_dim).transpose(1, 2)
                   for t in lin(self.qkv, self.norm1(x)).split(D, dim=-1))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        mask = torch.ones(S, S, dtype=torch.bool, device=x.device).triu(1)
        a = scores.masked_fill(mask, float("-inf")).softmax(-1) @ v
        x = x + lin(self.proj, a.transpose(1, 2).reshape(B, S, D))
        h = self.norm2(x)
        return x + lin(self.w_down, F.silu(lin(self.w_gate, h)) * lin(self.w_up, h))
