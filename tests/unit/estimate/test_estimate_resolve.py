"""An independent re-solve: a fresh draw from every family, its answer recomputed by a plain-Python
formula written here (not the family's own), with the model, GPU, topology and precision figures read
from the catalogs by the drawn entry's name, not from the parameters the loader bound."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from drill.estimate.draw import generate
from drill.estimate.schema import families

PROBLEMS = Path(__file__).resolve().parents[3] / "problems"
DRAWS = 25  # fresh draws per family, from a seed chosen at run time (printed on failure)

Params = dict[str, Any]
Catalogs = dict[str, dict[str, dict[str, Any]]]


def shard(stage: int, from_stage: int, dp: int) -> float:
    """The share of a state one GPU keeps: sharded over dp from ZeRO stage `from_stage` on."""
    return 1 / dp if stage >= from_stage else 1.0


def kv_bytes_per_token(m: dict[str, Any], bytes_per_elem: float) -> float:
    return 2 * m["layers"] * m["kv_heads"] * m["head_dim"] * bytes_per_elem


def int4_bytes() -> float:
    """4-bit weights + an FP16 scale and an FP16 zero-point per 128 weights, in bytes per weight."""
    return (4 + (16 + 16) / 128) / 8


def weight_bytes(q: Params, key: str) -> float:
    """Bytes per weight: the named precision, from the convention, not the catalog's number."""
    named = q.get("precision")
    return {"int4": int4_bytes(), "fp8": 1.0, "bf16": 2.0}[named] if named else q[key]


SOLVERS: dict[str, Callable[[Params, Catalogs], float]] = {
    "activation-memory": lambda q, c: (
        12 * q["batch"] * q["seq_len"] * c["models"][q["model"]]["hidden"] * c["models"][q["model"]]["layers"] * 2
    ),
    "allreduce-time": lambda q, c: (
        2 * (q["gpus"] - 1) / q["gpus"] * q["bytes"] / c["networks"][q["network"]]["bandwidth"]
    ),
    "attainable-flops": lambda q, c: min(
        c["gpus"][q["gpu"]]["bf16_flops"], q["intensity"] * c["gpus"][q["gpu"]]["hbm_bw"]
    ),
    "checkpoint-memory": lambda q, c: (
        (c["models"][q["model"]]["layers"] + 12) * q["batch"] * q["seq_len"] * c["models"][q["model"]]["hidden"] * 2
    ),
    "decode-tokens-per-s": lambda q, c: (
        q["tp"]
        * c["gpus"][q["gpu"]]["hbm_bw"]
        / (c["models"][q["model"]]["active_params"] * weight_bytes(q, "bytes_per_param"))
    ),
    "gqa-kv-saved": lambda q, c: (
        2
        * c["models"][q["model"]]["layers"]
        * (c["models"][q["model"]]["heads"] - c["models"][q["model"]]["kv_heads"])
        * c["models"][q["model"]]["head_dim"]
        * q["seq_len"]
        * q["batch"]
        * q["bytes_per_elem"]
    ),
    "inference-memory": lambda q, c: (
        c["models"][q["model"]]["total_params"] * q["bytes_per_elem"]
        + kv_bytes_per_token(c["models"][q["model"]], q["bytes_per_elem"]) * q["seq_len"] * q["batch"]
    ),
    "kv-cache": lambda q, c: (
        kv_bytes_per_token(c["models"][q["model"]], q["bytes_per_elem"]) * q["seq_len"] * q["batch"]
    ),
    "kv-per-token": lambda q, c: kv_bytes_per_token(c["models"][q["model"]], q["bytes_per_elem"]),
    "lora-params": lambda q, c: (
        c["models"][q["model"]]["layers"]
        * q["rank"]
        * (
            2 * c["models"][q["model"]]["hidden"]
            + c["models"][q["model"]]["heads"] * c["models"][q["model"]]["head_dim"]
            + c["models"][q["model"]]["kv_heads"] * c["models"][q["model"]]["head_dim"]
        )
    ),
    "matmul-intensity": lambda q, c: (
        2 * q["m"] * q["n"] * q["k"] / ((q["m"] * q["k"] + q["k"] * q["n"] + q["m"] * q["n"]) * q["bytes_per_elem"])
    ),
    "mfu": lambda q, c: 6 * q["params"] * q["tokens_per_s"] / (q["gpus"] * c["gpus"][q["gpu"]]["bf16_flops"]),
    "moe-alltoall-time": lambda q, c: (
        2
        * q["tokens"]
        * c["models"][q["model"]]["experts_per_token"]
        * c["models"][q["model"]]["hidden"]
        * q["bytes_per_elem"]
        * (q["ep"] - c["networks"][q["network"]]["local_gpus"])
        / q["ep"]
        / c["networks"][q["network"]]["alltoall_bandwidth"]
    ),
    "moe-alltoall-volume": lambda q, c: (
        2
        * q["tokens"]
        * c["models"][q["model"]]["experts_per_token"]
        * c["models"][q["model"]]["hidden"]
        * q["bytes_per_elem"]
        * (q["ep"] - 1)
        / q["ep"]
    ),
    "pipeline-bubble": lambda q, c: (q["stages"] - 1) / (q["microbatches"] + q["stages"] - 1),
    "prefill-time": lambda q, c: (
        2
        * c["models"][q["model"]]["active_params"]
        * q["prompt_tokens"]
        / (q["tp"] * c["gpus"][q["gpu"]]["bf16_flops"] * q["mfu"])
    ),
    "prefix-cache-memory": lambda q, c: (
        (q["requests"] - 1) * q["prefix_len"] * kv_bytes_per_token(c["models"][q["model"]], q["bytes_per_elem"])
    ),
    "quantized-size": lambda q, c: (
        c["models"][q["model"]]["total_params"] * (q["bits"] + 8 * (2 + 2) / q["group_size"]) / 8
    ),
    "roofline-crossover": lambda q, c: c["gpus"][q["gpu"]]["bf16_flops"] / c["gpus"][q["gpu"]]["hbm_bw"],
    "saturating-batch": lambda q, c: (
        c["gpus"][q["gpu"]]["bf16_flops"] * q["bytes_per_param"] / (2 * c["gpus"][q["gpu"]]["hbm_bw"])
    ),
    "serving-gpus": lambda q, c: math.ceil(
        (
            c["models"][q["model"]]["total_params"] * weight_bytes(q, "weight_bytes")
            + q["users"] * q["seq_len"] * kv_bytes_per_token(c["models"][q["model"]], q["kv_bytes"])
        )
        / (q["usable"] * c["gpus"][q["gpu"]]["hbm_bytes"])
    ),
    "spec-decode-speedup": lambda q, c: (
        sum(q["alpha"] ** i for i in range(q["k"] + 1)) * q["target_ms"] / (q["k"] * q["draft_ms"] + q["target_ms"])
    ),
    "tp-allreduce-time": lambda q, c: (
        2
        * 2
        * (q["tp"] - 1)
        / q["tp"]
        * q["batch"]
        * q["seq_len"]
        * c["models"][q["model"]]["hidden"]
        * q["bytes_per_elem"]
        / c["networks"][q["network"]]["bandwidth"]
    ),
    "train-flops": lambda q, c: 6 * q["params"] * q["tokens"],
    "train-memory": lambda q, c: (
        q["params"]
        * (
            2 * shard(q["zero_stage"], 3, q["dp"])
            + 2 * shard(q["zero_stage"], 2, q["dp"])
            + 12 * shard(q["zero_stage"], 1, q["dp"])
        )
    ),
    "train-time": lambda q, c: (
        6 * q["params"] * q["tokens"] / (q["gpus"] * c["gpus"][q["gpu"]]["bf16_flops"] * q["mfu"])
    ),
    "zero3-comm-volume": lambda q, c: 3 * (q["dp"] - 1) / q["dp"] * q["params"] * q["bytes_per_elem"],
}


def test_every_shipped_family_has_an_independent_solver() -> None:
    assert set(SOLVERS) == {family.id for family in families(PROBLEMS)}


@pytest.mark.parametrize("fid", sorted(SOLVERS))
def test_a_fresh_draw_agrees_with_the_independent_formula(fid, catalogs) -> None:
    family = next(f for f in families(PROBLEMS) if f.id == fid)
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    for _ in range(DRAWS):
        problem = generate(family, rng)
        expected = SOLVERS[fid](problem.params, catalogs)
        assert problem.truth == pytest.approx(expected, rel=1e-9), (fid, seed, problem.params)
