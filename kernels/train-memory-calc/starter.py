"""Per-GPU training memory: weights, grads, optimizer state (with ZeRO), activations."""

from __future__ import annotations

import math


def training_memory(n_params: int, dtype: str = "bf16", optimizer: str = "adam", zero_stage: int = 0,
                    dp_size: int = 1, *, batch: int = 0, seq_len: int = 0, hidden: int = 0,
                    n_layers: int = 0, n_heads: int = 0, recompute: str = "none") -> dict[str, int]:
    """Bytes per GPU: {"weights", "grads", "optimizer", "activations", "total"} (Python ints)."""
    raise NotImplementedError
