"""MLA as ordinary attention: per-head keys [K_C; k_rope] and queries [q_C; q_R] into SDPA with an explicit mask."""

from __future__ import annotations

import torch
import torch.nn.functional as F
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

    def forward(self, h, cache=None):
        B, T, _ = h.shape
        H, D, R = self.n_heads, self.d_head, self.d_rope
        past_c, past_r = cache if cache is not None else (h.new_empty(B, 0, self.d_c), h.new_empty(B, 0, R))
        P = past_c.shape[1]
        S = P + T
        pos = torch.arange(P, P + T, device=h.device)
        c_all = torch.cat([past_c, self.w_dkv(h)], dim=1)
        kr_all = torch.cat([past_r, rope(self.w_kr(h), pos)], dim=1)

        def split(x, d):
            return x.unflatten(-1, (H, d)).transpose(1, 2)

        k = torch.cat([split(self.w_uk(c_all), D), kr_all.unsqueeze(1).expand(B, H, S, R)], dim=-1)
        q = torch.cat([split(self.w_q(h), D), rope(split(self.w_qr(h), R), pos)], dim=-1)
        v = split(self.w_uv(c_all), D)
        allowed = torch.arange(S, device=h.device) <= pos.unsqueeze(1)        # (T, S)
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)     # scale 1/sqrt(D + R) by default
        return self.w_o(o.transpose(1, 2).flatten(2)), (c_all, kr_all)
