"""Takes n as the total number of accepted drafts instead of the length of the leading run of accepts."""

from __future__ import annotations

import torch
from torch import Tensor


def verify(p: Tensor, q: Tensor, draft_tokens: Tensor, generator: torch.Generator) -> Tensor:
    k = draft_tokens.shape[0]
    rows = torch.arange(k, device=p.device)
    u = torch.rand(k, generator=generator, device=p.device)
    accept = u * q[rows, draft_tokens] < p[rows, draft_tokens]
    n = int(accept.sum())
    dist = (p[n] - q[n]).clamp_min(0) if n < k else p[k]
    return torch.cat([draft_tokens[:n], torch.multinomial(dist, 1, generator=generator)])
