"""Builds the residual in place in p, corrupting the caller's probabilities."""

from __future__ import annotations

import torch
from torch import Tensor


def verify(p: Tensor, q: Tensor, draft_tokens: Tensor, generator: torch.Generator) -> Tensor:
    k = draft_tokens.shape[0]
    out = []
    for i in range(k):
        x = int(draft_tokens[i])
        u = torch.rand((), generator=generator, device=p.device)
        if u < p[i, x] / q[i, x]:
            out.append(x)
            continue
        residual = p[i].sub_(q[i]).clamp_min_(0)
        out.append(int(torch.multinomial(residual / residual.sum(), 1, generator=generator)))
        return torch.tensor(out, dtype=torch.long, device=p.device)
    out.append(int(torch.multinomial(p[k], 1, generator=generator)))
    return torch.tensor(out, dtype=torch.long, device=p.device)
