"""Right answer: one launch per 4096-element chunk (views into one output), BLOCK_SIZE 512, num_warps given."""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from torch import Tensor

CHUNK = 4096
BLOCK = 512


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    m = offs < n_elements
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


def add(x: Tensor, y: Tensor) -> Tensor:
    if (x.shape, x.dtype, x.device) != (y.shape, y.dtype, y.device):
        raise ValueError("x and y differ in shape, dtype or device")
    out = torch.empty_like(x)
    xf, yf, of = x.reshape(-1), y.reshape(-1), out.view(-1)
    for start in range(0, xf.numel(), CHUNK):
        stop = min(start + CHUNK, xf.numel())
        n = stop - start
        add_kernel[(triton.cdiv(n, BLOCK),)](xf[start:stop], yf[start:stop], of[start:stop], n,
                                              BLOCK_SIZE=BLOCK, num_warps=4)
    return out
