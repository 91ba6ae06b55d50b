"""Speculative decoding verification by rejection sampling."""

from __future__ import annotations

import torch
from torch import Tensor


def verify(p: Tensor, q: Tensor, draft_tokens: Tensor, generator: torch.Generator) -> Tensor:
    """p: (k+1, V) target probs, q: (k, V) draft probs, draft_tokens: (k,) int64.

    Returns the emitted tokens (1-D int64): accepted drafts, then one resampled or bonus token.
    All randomness comes from `generator`.
    """
    k = draft_tokens.shape[0]
    rows = torch.arange(k, device=p.device)
    p_draft = p[rows, draft_tokens]
    q_draft = q[rows, draft_tokens]
    u = torch.rand(k, generator=generator, device=p.device, dtype=p.dtype)
    accept = u * q_draft < p_draft  # u < p/q without dividing
    n = int(accept.long().cumprod(0).sum())  # length of the leading run of accepts
    if n < k:
        dist = (p[n] - q[n]).clamp_min(0)
    else:
        dist = p[k]
    extra = torch.multinomial(dist, 1, generator=generator)  # multinomial normalises
    return torch.cat([draft_tokens[:n], extra])
