"""GQA with einsum over a (B, Hkv, G, S, D) view of q, a finite causal fill and a hand-written softmax."""

from __future__ import annotations

import math

import torch


def gqa_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False) -> torch.Tensor:
    B, Hq, S, D = q.shape
    Hkv = k.shape[1]
    if Hkv == 0 or Hq % Hkv:
        raise ValueError(f"{Hq} query heads cannot be split evenly over {Hkv} K/V heads")
    G = Hq // Hkv
    qg = q.view(B, Hkv, G, S, D).float()
    s = torch.einsum("bhgsd,bhtd->bhgst", qg, k.float()) / math.sqrt(D)
    if causal:
        i = torch.arange(S, device=q.device)
        s = s.masked_fill(i[None, :] > i[:, None], torch.finfo(torch.float32).min)
    s = s - s.amax(dim=-1, keepdim=True)
    p = s.exp()
    p = p / p.sum(dim=-1, keepdim=True)
    o = torch.einsum("bhgst,bhtd->bhgsd", p, v.float())
    return o.reshape(B, Hq, S, D).to(q.dtype)
