"""Right answer: grid lambda over meta, BLOCK_SIZE 256 passed positionally, float32 math, flat output viewed back."""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from torch import Tensor


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    start = tl.program_id(0) * BLOCK_SIZE
    idx = start + tl.arange(0, BLOCK_SIZE)
    inb = idx < n_elements
    a = tl.load(x_ptr + idx, mask=inb, other=0.0).to(tl.float32)
    b = tl.load(y_ptr + idx, mask=inb, other=0.0).to(tl.float32)
    tl.store(out_ptr + idx, (a + b).to(out_ptr.dtype.element_ty), mask=inb)


def add(x: Tensor, y: Tensor) -> Tensor:
    for what, a, b in (("shape", x.shape, y.shape), ("dtype", x.dtype, y.dtype), ("device", x.device, y.device)):
        if a != b:
            raise ValueError(f"{what} mismatch: {a} vs {b}")
    n = x.numel()
    flat = torch.empty(n, dtype=x.dtype, device=x.device)
    grid = lambda meta: (triton.cdiv(meta["n_elements"], meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x.view(-1), y.view(-1), flat, n, 256)
    return flat.view(x.shape)
