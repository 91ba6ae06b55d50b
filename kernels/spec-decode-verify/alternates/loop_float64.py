"""Python loop over the drafts, one uniform at a time, in float64; residual sampled by multinomial."""

from __future__ import annotations

import torch
from torch import Tensor


def verify(p: Tensor, q: Tensor, draft_tokens: Tensor, generator: torch.Generator) -> Tensor:
    k = draft_tokens.numel()
    p64, q64 = p.double(), q.double()
    emitted = []
    for i in range(k):
        x = int(draft_tokens[i])
        ratio = p64[i, x] / q64[i, x]
        u = torch.rand(1, generator=generator, device=p.device, dtype=torch.float64)
        if bool(u < ratio):
            emitted.append(draft_tokens[i:i + 1])
            continue
        residual = torch.clamp(p64[i] - q64[i], min=0.0)
        emitted.append(torch.multinomial(residual / residual.sum(), 1, generator=generator))
        break
    else:
        emitted.append(torch.multinomial(p64[k], 1, generator=generator))
    return torch.cat(emitted).to(torch.int64)
