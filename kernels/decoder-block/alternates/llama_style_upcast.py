"""Right answer, Llama style: RMSNorm and softmax computed in float32 and cast back, one fused (B*H) bmm, boolean tril mask."""

from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-5) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: Tensor) -> Tensor:
        xf = x.float()
        normed = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)
        return normed.type_as(x) * self.weight


class DecoderBlock(nn.Module):
    def __init__(self, d_model: int, n_heads: int, d_ff: int, eps: float = 1e-5) -> None:
        super().__init__()
        if d_model % n_heads:
            raise ValueError(f"{d_model} % {n_heads} != 0")
        self.n_heads = n_heads
        self.norm1 = RMSNorm(d_model, eps)
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.proj = nn.Linear(d_model, d_model, bias=False)
        self.norm2 = RMSNorm(d_model, eps)
        self.w_gate = nn.Linear(d_model, d_ff, bias=False)
        self.w_up = nn.Linear(d_model, d_ff, bias=False)
        self.w_down = nn.Linear(d_ff, d_model, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        B, S, D = x.shape
        H, dh = self.n_heads, D // self.n_heads
        qkv = self.qkv(self.norm1(x)).reshape(B, S, 3, H, dh).permute(2, 0, 3, 1, 4)  # (3, B, H, S, dh)
        q, k, v = (t.reshape(B * H, S, dh) for t in qkv.unbind(0))
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(dh)
        keep = torch.ones(S, S, dtype=torch.bool, device=x.device).tril()
        probs = scores.float().masked_fill(~keep, float("-inf")).softmax(-1).to(v.dtype)
        attn = torch.bmm(probs, v).view(B, H, S, dh).transpose(1, 2).reshape(B, S, D)
        x = x + self.proj(attn)
        h = self.norm2(x)
        return x + self.w_down(F.silu(self.w_gate(h)) * self.w_up(h))
