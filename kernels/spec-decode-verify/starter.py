"""Speculative decoding verification by rejection sampling."""

from __future__ import annotations

import torch
from torch import Tensor


def verify(p: Tensor, q: Tensor, draft_tokens: Tensor, generator: torch.Generator) -> Tensor:
    """p: (k+1, V) target probs, q: (k, V) draft probs, draft_tokens: (k,) int64.

    Returns the emitted tokens (1-D int64): accepted drafts, then one resampled or bonus token.
    All randomness comes from `generator`.
    """
    raise NotImplementedError
