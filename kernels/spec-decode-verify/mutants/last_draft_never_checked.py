"""Off by one: the loop checks only the first k-1 drafts and always keeps the last one."""

from __future__ import annotations

import torch
from torch import Tensor


def verify(p: Tensor, q: Tensor, draft_tokens: Tensor, generator: torch.Generator) -> Tensor:
    k = draft_tokens.shape[0]
    out = []
    for i in range(k - 1):
        x = int(draft_tokens[i])
        u = torch.rand((), generator=generator, device=p.device)
        if u < p[i, x] / q[i, x]:
            out.append(x)
            continue
        residual = (p[i] - q[i]).clamp_min(0)
        out.append(int(torch.multinomial(residual / residual.sum(), 1, generator=generator)))
        return torch.tensor(out, dtype=torch.long, device=p.device)
    out.append(int(draft_tokens[k - 1]))  # the last draft "is verified by the bonus pass"
    out.append(int(torch.multinomial(p[k], 1, generator=generator)))
    return torch.tensor(out, dtype=torch.long, device=p.device)
