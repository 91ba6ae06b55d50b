"""forward flattens x to 2-D for the adapter but reshapes the result with x.shape[0] only (breaks for 1-D and >3-D inputs)."""

from __future__ import annotations

import math

import torch
import torch.nn as nn
from torch import Tensor


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r: int, alpha: float) -> None:
        """Attributes: base (frozen), lora_A (r, in), lora_B (out, r) zeros, scaling = alpha / r."""
        super().__init__()
        if r < 1:
            raise ValueError(f"rank r must be >= 1, got {r}")
        self.base = base
        base.requires_grad_(False)
        factory = {"device": base.weight.device, "dtype": base.weight.dtype}
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features, **factory))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r, **factory))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.scaling = alpha / r

    def forward(self, x: Tensor) -> Tensor:
        """(..., in_features) -> (..., out_features): base(x) + scaling * x @ A.T @ B.T."""
        flat = x.reshape(-1, x.shape[-1])
        delta = (flat @ self.lora_A.T) @ self.lora_B.T
        return self.base(x) + self.scaling * delta.reshape(x.shape[0], -1, delta.shape[-1]).squeeze(1)

    @torch.no_grad()
    def merge(self) -> nn.Linear:
        """A new nn.Linear with weight W + scaling * B @ A and the base's bias."""
        base = self.base
        merged = nn.Linear(base.in_features, base.out_features, bias=base.bias is not None,
                           device=base.weight.device, dtype=base.weight.dtype)
        merged.weight.copy_(base.weight + self.scaling * (self.lora_B @ self.lora_A))
        if base.bias is not None:
            merged.bias.copy_(base.bias)
        return merged
