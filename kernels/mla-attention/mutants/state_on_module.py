"""Keeps the latent history on self between calls and ignores the contents of the cache it is given."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F  # noqa: F401
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
        self.w_dkv = nn.Linear(d_model, d_c, bias=False)                # h -> c_kv (cached latent)
        self.w_uk = nn.Linear(d_c, n_heads * d_head, bias=False)        # c_kv -> per-head K_C
        self.w_uv = nn.Linear(d_c, n_heads * d_head, bias=False)        # c_kv -> per-head V
        self.w_kr = nn.Linear(d_model, d_rope, bias=False)              # h -> k_rope (shared, cached)
        self.w_q = nn.Linear(d_model, n_heads * d_head, bias=False)     # h -> per-head q_C
        self.w_qr = nn.Linear(d_model, n_heads * d_rope, bias=False)    # h -> per-head q_R
        self.w_o = nn.Linear(n_heads * d_head, d_model, bias=False)

    def forward(self, h: Tensor, cache: tuple[Tensor, Tensor] | None = None
                ) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        """h: (B, T, d_model) new tokens at positions P..P+T-1; cache None or (c_kv (B, P, d_c),
        k_rope (B, P, d_rope)). Returns (out (B, T, d_model), (c_kv_all, k_rope_all))."""
        B, T, _ = h.shape
        H, D, R = self.n_heads, self.d_head, self.d_rope
        P = 0 if cache is None else cache[0].shape[1]
        pos = torch.arange(P, P + T, device=h.device)

        def heads(x: Tensor, d: int) -> Tensor:
            return x.view(B, x.shape[1], H, d).transpose(1, 2)

        c_new = self.w_dkv(h)
        kr_new = rope(self.w_kr(h), pos)
        if cache is None or getattr(self, "_hist", None) is None:
            c_all, kr_all = c_new, kr_new
        else:
            c_all, kr_all = torch.cat([self._hist[0], c_new], dim=1), torch.cat([self._hist[1], kr_new], dim=1)
        if cache is not None and c_all.shape[1] != P + T:
            c_all, kr_all = torch.cat([cache[0], c_new], dim=1), torch.cat([cache[1], kr_new], dim=1)
        self._hist = (c_all, kr_all)
        S = P + T

        k_c = heads(self.w_uk(c_all), D)                   # (B, H, S, D)
        v = heads(self.w_uv(c_all), D)                     # (B, H, S, D)
        q_c = heads(self.w_q(h), D)                        # (B, H, T, D)
        q_r = rope(heads(self.w_qr(h), R), pos)            # (B, H, T, R)

        scores = q_c @ k_c.transpose(-1, -2) + q_r @ kr_all[:, None].transpose(-1, -2)
        scores = scores / math.sqrt(D + R)
        future = torch.arange(S, device=h.device)[None, :] > pos[:, None]   # (T, S)
        scores = scores.masked_fill(future, float("-inf"))
        o = torch.softmax(scores, dim=-1) @ v               # (B, H, T, D)
        out = self.w_o(o.transpose(1, 2).reshape(B, T, H * D))
        return out, (c_all, kr_all)
