"""Right answer by another route: forward folds the delta into one F.linear; merge deep-copies the base and adds in place."""

from __future__ import annotations

import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r: int, alpha: float) -> None:
        super().__init__()
        if not isinstance(r, int) or r < 1:
            raise ValueError("r must be a positive int")
        for p in base.parameters():
            p.requires_grad = False
        self.base = base
        w = base.weight
        self.lora_A = nn.Parameter(torch.randn(r, w.shape[1], device=w.device, dtype=w.dtype) / w.shape[1] ** 0.5)
        self.lora_B = nn.Parameter(w.new_zeros(w.shape[0], r))
        self.scaling = float(alpha) / float(r)

    def delta(self) -> Tensor:
        return torch.mm(self.lora_B, self.lora_A) * self.scaling

    def forward(self, x: Tensor) -> Tensor:
        return F.linear(x, self.base.weight + self.delta(), self.base.bias)

    def merge(self) -> nn.Linear:
        merged = copy.deepcopy(self.base)
        with torch.no_grad():
            merged.weight += self.delta()
        return merged
