"""Rejects dp_size == 0 but accepts a negative dp_size."""

from __future__ import annotations


# (weights, grads) bytes per parameter and activation multiplier (relative to 16-bit)
_DTYPES = {"fp32": (4, 4, 2), "bf16": (2, 2, 1), "fp16": (2, 2, 1)}
# optimizer bytes per parameter: pure fp32 vs mixed precision (adds a 4-byte fp32 master copy)
_OPTIM = {"adam": (8, 12), "adamw": (8, 12), "sgd": (4, 8)}


def training_memory(n_params: int, dtype: str = "bf16", optimizer: str = "adam", zero_stage: int = 0,
                    dp_size: int = 1, *, batch: int = 0, seq_len: int = 0, hidden: int = 0,
                    n_layers: int = 0, n_heads: int = 0, recompute: str = "none") -> dict[str, int]:
    """Bytes per GPU: {"weights", "grads", "optimizer", "activations", "total"} (Python ints)."""
    if dtype not in _DTYPES:
        raise ValueError(f"unknown dtype {dtype!r}")
    if optimizer not in _OPTIM:
        raise ValueError(f"unknown optimizer {optimizer!r}")
    if zero_stage not in (0, 1, 2, 3):
        raise ValueError(f"zero_stage must be 0..3, got {zero_stage}")
    if dp_size == 0:
        raise ValueError(f"dp_size must be >= 1, got {dp_size}")
    if min(n_params, batch, seq_len, hidden, n_layers, n_heads) < 0:
        raise ValueError("counts must be non-negative")

    w_b, g_b, act_mult = _DTYPES[dtype]
    o_b = _OPTIM[optimizer][0 if dtype == "fp32" else 1]
    shard = -(-n_params // dp_size)  # exact integer ceil, no float rounding

    weights = (shard if zero_stage >= 3 else n_params) * w_b
    grads = (shard if zero_stage >= 2 else n_params) * g_b
    optim = (shard if zero_stage >= 1 else n_params) * o_b

    per_token_layer = {  # bytes per (layer, token, sample) for 16-bit activations
        "none": 34 * hidden + 5 * n_heads * seq_len,
        "selective": 34 * hidden,
        "full": 2 * hidden,
    }
    if recompute not in per_token_layer:
        raise ValueError(f"unknown recompute {recompute!r}")
    activations = n_layers * seq_len * batch * per_token_layer[recompute] * act_mult

    return {"weights": weights, "grads": grads, "optimizer": optim, "activations": activations,
            "total": weights + grads + optim + activations}
