"""Multi-head latent attention (DeepSeek-V2 MLA) with a latent KV cache and decoupled RoPE."""

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
        raise NotImplementedError
