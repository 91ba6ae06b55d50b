"""Rejects every == 0 only: a negative every is accepted and forward runs no layer at all."""

from __future__ import annotations

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


class CheckpointedSequential(nn.Module):
    """Run `layers` in order; each segment of `every` consecutive layers runs under
    torch.utils.checkpoint.checkpoint(..., use_reentrant=False).

    Keep the given layer objects as self.layers = nn.ModuleList(layers).
    Raise ValueError if every < 1.
    """

    def __init__(self, layers: list[nn.Module], every: int = 2):
        super().__init__()
        if every == 0:
            raise ValueError(f"every must be >= 1, got {every}")
        self.layers = nn.ModuleList(layers)
        self.every = every

    @staticmethod
    def _segment(layers: nn.ModuleList):
        def run(x: torch.Tensor) -> torch.Tensor:
            for layer in layers:
                x = layer(x)
            return x

        return run

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for start in range(0, len(self.layers), self.every):
            segment = self.layers[start : start + self.every]
            x = checkpoint(self._segment(segment), x, use_reentrant=False)
        return x
