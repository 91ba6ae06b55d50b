"""Right answer: exp2 with log2(e) scaling, multiply by the reciprocal sum, tl.where masking, meta-lambda grid, empty_strided output."""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from torch import Tensor

LOG2E = 1.4426950408889634


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0).to(tl.int64)
    offs = tl.arange(0, BLOCK_SIZE)
    valid = offs < n_cols
    v = tl.load(in_ptr + pid * in_row_stride + offs, mask=valid).to(tl.float32)
    v = tl.where(valid, v, float("-inf"))
    z = (v - tl.max(v, axis=0)) * 1.4426950408889634
    p = tl.exp2(z)
    inv = 1.0 / tl.sum(p, axis=0)
    tl.store(out_ptr + pid * out_row_stride + offs, (p * inv).to(out_ptr.dtype.element_ty), mask=valid)


def softmax(x: Tensor) -> Tensor:
    if x.ndim != 2:
        raise ValueError(f"expected a 2-D tensor, got {x.ndim}-D")
    if x.stride(1) != 1:
        raise ValueError("the last dimension must have stride 1")
    rows, cols = x.shape
    out = torch.empty_strided((rows, cols), (cols, 1), dtype=x.dtype, device=x.device)
    softmax_kernel[lambda meta: (rows,)](
        out, x, x.stride(0), cols, cols, BLOCK_SIZE=triton.next_power_of_2(cols), num_warps=4)
    return out
