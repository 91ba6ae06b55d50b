"""GQA computed key-major: scores^T = k @ q^T per K/V head (G folded into columns), softmax over dim -2."""

from __future__ import annotations

import torch


def gqa_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False) -> torch.Tensor:
    B, Hq, S, D = q.shape
    Hkv = k.shape[1]
    if Hq % Hkv != 0:
        raise ValueError("Hq % Hkv != 0")
    G = Hq // Hkv
    qt = q.reshape(B, Hkv, G * S, D).transpose(-1, -2).float()  # (B, Hkv, D, G*S)
    st = torch.matmul(k.float(), qt) * D**-0.5  # (B, Hkv, S_keys, G*S)
    if causal:
        key = torch.arange(S, device=q.device)[:, None]
        query = torch.arange(G * S, device=q.device)[None, :] % S
        st = torch.where(key > query, float("-inf"), st)
    pt = torch.softmax(st, dim=-2)
    ot = torch.matmul(v.float().transpose(-1, -2), pt)  # (B, Hkv, D, G*S)
    return ot.transpose(-1, -2).reshape(B, Hq, S, D).to(q.dtype)
