"""Right answer by another route: per-term stage thresholds, divmod for the ceiling, validation up front."""

from __future__ import annotations


def training_memory(n_params: int, dtype: str = "bf16", optimizer: str = "adam", zero_stage: int = 0,
                    dp_size: int = 1, *, batch: int = 0, seq_len: int = 0, hidden: int = 0,
                    n_layers: int = 0, n_heads: int = 0, recompute: str = "none") -> dict[str, int]:
    mixed = {"fp32": False, "bf16": True, "fp16": True}
    if dtype not in mixed:
        raise ValueError(dtype)
    if optimizer not in ("adam", "adamw", "sgd"):
        raise ValueError(optimizer)
    if recompute not in ("none", "selective", "full"):
        raise ValueError(recompute)
    if zero_stage not in range(4):
        raise ValueError(zero_stage)
    if dp_size < 1:
        raise ValueError(dp_size)
    for name, value in dict(n_params=n_params, batch=batch, seq_len=seq_len, hidden=hidden,
                            n_layers=n_layers, n_heads=n_heads).items():
        if value < 0:
            raise ValueError(f"{name} < 0")

    q, r = divmod(n_params, dp_size)
    shard = q + (1 if r else 0)
    states = 2 if optimizer in ("adam", "adamw") else 1  # fp32 m (and v)
    per = {"weights": 2 if mixed[dtype] else 4, "grads": 2 if mixed[dtype] else 4,
           "optimizer": 4 * states + (4 if mixed[dtype] else 0)}
    sharded_from = {"optimizer": 1, "grads": 2, "weights": 3}
    out = {k: per[k] * (shard if zero_stage >= sharded_from[k] else n_params) for k in per}

    tokens = n_layers * seq_len * batch
    if recompute == "full":
        act = tokens * 2 * hidden
    elif recompute == "selective":
        act = tokens * 34 * hidden
    else:
        act = tokens * 34 * hidden + tokens * 5 * n_heads * seq_len
    out["activations"] = act if mixed[dtype] else 2 * act
    out["total"] = out["weights"] + out["grads"] + out["optimizer"] + out["activations"]
    return out
