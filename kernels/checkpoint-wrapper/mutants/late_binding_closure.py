"""Builds each segment's function as a lambda over the loop variable: backward recomputes the last segment every time."""

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
        if every < 1:
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
            x = checkpoint(lambda t: self._segment(self.layers[start : start + self.every])(t), x,
                           use_reentrant=False)
        return x
