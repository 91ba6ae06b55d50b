"""MLA with w_uk absorbed into the query and w_uv applied after attention: attends over c_kv directly."""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn


def rope(x: Tensor, pos: Tensor, base: float = 10000.0) -> Tensor:
    """x: (..., T, d), d even; pos: (T,) integer absolute positions. Rotates each pair
    (x[..., 2i], x[..., 2i+1]) by the angle pos * base ** (-2i / d). Given: keep it."""
    d = x.shape[-1]
    work = torch.float64 if x.dtype == torch.float64 else torch.float32
    inv_freq = base ** (-torch.arange(0, d, 2, device=x.device, dtype=work) / d)   # (d/2,)
    angle = pos.to(device=x.device, dtype=work)[:, None] * inv_freq[None, :]       # (T, d/2)
    cos, sin = angle.cos().to(x.dtype), angle.sin().to(x.dtype)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1).flatten(-2)


class MLAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, d_head: int, d_c: int, d_rope: int):
        super().__init__()
        assert d_rope % 2 == 0
        self.n_heads, self.d_head, self.d_c, self.d_rope = n_heads, d_head, d_c, d_rope
        self.w_dkv = nn.Linear(d_model, d_c, bias=False)
        self.w_uk = nn.Linear(d_c, n_heads * d_head, bias=False)
        self.w_uv = nn.Linear(d_c, n_heads * d_head, bias=False)
        self.w_kr = nn.Linear(d_model, d_rope, bias=False)
        self.w_q = nn.Linear(d_model, n_heads * d_head, bias=False)
        self.w_qr = nn.Linear(d_model, n_heads * d_rope, bias=False)
        self.w_o = nn.Linear(n_heads * d_head, d_model, bias=False)

    def forward(self, h: Tensor, cache: tuple[Tensor, Tensor] | None = None
                ) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        B, T, _ = h.shape
        H, D, R, C = self.n_heads, self.d_head, self.d_rope, self.d_c
        P = 0 if cache is None else cache[1].size(1)
        pos = torch.arange(P, P + T, device=h.device)
        # the cache: latent and rotated shared key, appended
        c_new = self.w_dkv(h)
        kr_new = rope(self.w_kr(h), pos)
        c_all = c_new if cache is None else torch.cat((cache[0], c_new), 1)
        kr_all = kr_new if cache is None else torch.cat((cache[1], kr_new), 1)
        # absorb W_UK: q_C . (W_UK^j c) = (W_UK^j^T q_C) . c
        w_uk = self.w_uk.weight.view(H, D, C)                          # head j: rows j*D..(j+1)*D-1
        q_c = self.w_q(h).view(B, T, H, D)
        q_lat = torch.einsum("bthd,hdc->bhtc", q_c, w_uk)              # (B, H, T, C)
        q_r = rope(self.w_qr(h).view(B, T, H, R).permute(0, 2, 1, 3), pos)   # (B, H, T, R)
        scores = torch.einsum("bhtc,bsc->bhts", q_lat, c_all) + torch.einsum("bhtr,bsr->bhts", q_r, kr_all)
        scores = scores * (1.0 / math.sqrt(D + R))
        key_pos = torch.arange(P + T, device=h.device)
        scores = scores.masked_fill(key_pos.view(1, -1) > pos.view(-1, 1), -math.inf)
        probs = scores.softmax(dim=-1)
        ctx = torch.einsum("bhts,bsc->bhtc", probs, c_all)             # attention over the latent
        w_uv = self.w_uv.weight.view(H, D, C)
        o = torch.einsum("bhtc,hdc->bthd", ctx, w_uv).reshape(B, T, H * D)
        return self.w_o(o), (c_all, kr_all)
