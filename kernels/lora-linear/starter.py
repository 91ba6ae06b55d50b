"""LoRA: frozen nn.Linear plus a trainable low-rank update scaling * B @ A."""

from __future__ import annotations

import math

import torch
import torch.nn as nn
from torch import Tensor


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r: int, alpha: float) -> None:
        """Attributes: base (frozen), lora_A (r, in), lora_B (out, r) zeros, scaling = alpha / r."""
        super().__init__()
        raise NotImplementedError

    def forward(self, x: Tensor) -> Tensor:
        """(..., in_features) -> (..., out_features): base(x) + scaling * x @ A.T @ B.T."""
        raise NotImplementedError

    def merge(self) -> nn.Linear:
        """A new nn.Linear with weight W + scaling * B @ A and the base's bias."""
        raise NotImplementedError
