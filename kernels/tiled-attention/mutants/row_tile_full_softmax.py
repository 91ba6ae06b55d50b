"""Tiles the queries but softmaxes each (block_size x S) score row-tile at once: no online rescale over key tiles."""

from __future__ import annotations

import math

import torch


def tiled_attention(q, k, v, block_size=64, causal=False):
    B, H, S, D = q.shape
    out = torch.empty_like(q)
    kf, vf = k.float(), v.float()
    for qs in range(0, S, block_size):
        qe = min(qs + block_size, S)
        s = q[:, :, qs:qe].float() @ kf.transpose(-1, -2) / math.sqrt(D)  # (bq, S): allowed size
        if causal:
            qi = torch.arange(qs, qe, device=q.device)[:, None]
            s = s.masked_fill(torch.arange(S, device=q.device)[None, :] > qi, -math.inf)
        out[:, :, qs:qe] = (torch.softmax(s, -1) @ vf).to(q.dtype)
    return out
