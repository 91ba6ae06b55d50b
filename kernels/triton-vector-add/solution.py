"""Triton vector add: out = x + y."""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from torch import Tensor

BLOCK_SIZE = 1024


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    """Program pid handles elements [pid * BLOCK_SIZE, (pid + 1) * BLOCK_SIZE)."""
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def add(x: Tensor, y: Tensor) -> Tensor:
    """Launch add_kernel over a 1-D grid; returns a new tensor x + y."""
    if x.shape != y.shape or x.dtype != y.dtype or x.device != y.device:
        raise ValueError(f"x and y must match: {x.shape}/{x.dtype}/{x.device} vs {y.shape}/{y.dtype}/{y.device}")
    out = torch.empty_like(x, memory_format=torch.contiguous_format)
    n = x.numel()
    add_kernel[(triton.cdiv(n, BLOCK_SIZE),)](x, y, out, n, BLOCK_SIZE=BLOCK_SIZE)
    return out
