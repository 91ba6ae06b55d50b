"""Pre-norm causal decoder block: RMSNorm -> causal MHA -> residual -> RMSNorm -> SwiGLU -> residual."""

from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class DecoderBlock(nn.Module):
    def __init__(self, d_model: int, n_heads: int, d_ff: int, eps: float = 1e-5) -> None:
        """Submodules: norm1, qkv, proj, norm2, w_gate, w_up, w_down (see prompt.md)."""
        super().__init__()
        raise NotImplementedError

    def forward(self, x: Tensor) -> Tensor:
        """x: (B, S, d_model) -> (B, S, d_model); causal: position i sees positions <= i."""
        raise NotImplementedError
