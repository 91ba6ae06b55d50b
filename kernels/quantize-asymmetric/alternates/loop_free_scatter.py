"""Right answer: group ids via index arithmetic and repeat_interleave, reciprocal-scale multiply, bankers rounding."""

from __future__ import annotations

import torch


def quantize_asymmetric(w, bits=4, group_size=128):
    if w.dim() != 2:
        raise ValueError("w must be 2-D")
    rows, cols = w.shape
    if group_size <= 0 or cols % group_size:
        raise ValueError(f"{cols} columns do not split into groups of {group_size}")
    qmax = float((1 << bits) - 1)
    x = w.to(torch.float32).contiguous()
    n_groups = cols // group_size
    groups = x.unfold(1, group_size, group_size)  # (rows, n_groups, group_size), a view
    mn, mx = torch.aminmax(groups, dim=2)
    mn = torch.minimum(mn, torch.zeros_like(mn))
    mx = torch.maximum(mx, torch.zeros_like(mx))
    span = mx - mn
    zero_span = span == 0
    scale = torch.where(zero_span, torch.ones_like(span), span / qmax)
    zp = torch.clamp(torch.round(-mn / scale), 0.0, qmax)
    s_full = scale.repeat_interleave(group_size, dim=1)
    z_full = zp.repeat_interleave(group_size, dim=1)
    q = torch.clamp(torch.round(x / s_full) + z_full, 0.0, qmax).to(torch.uint8)
    assert scale.shape == (rows, n_groups)
    return q, scale, zp.to(torch.uint8)


def dequantize_asymmetric(q, scale, zero_point, group_size):
    s_full = scale.to(torch.float32).repeat_interleave(group_size, dim=1)
    z_full = zero_point.to(torch.int32).repeat_interleave(group_size, dim=1)
    return (q.to(torch.int32) - z_full).to(torch.float32) * s_full
