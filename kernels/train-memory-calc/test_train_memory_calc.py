"""Hidden tests for the train-memory-calc drill (pure Python: device-independent)."""

from __future__ import annotations

import pytest
import torch

KEYS = {"weights", "grads", "optimizer", "activations", "total"}
SEED_MODEL = dict(batch=4, seq_len=4096, hidden=5120, n_layers=40, n_heads=40)


def call(candidate, *args, **kwargs):
    out = candidate.training_memory(*args, **kwargs)
    assert isinstance(out, dict) and set(out) == KEYS, f"return a dict with exactly the keys {sorted(KEYS)}, got {out!r}"
    for k, v in out.items():
        assert isinstance(v, int) and not isinstance(v, bool), f"{k} must be a Python int (bytes), got {v!r}"
    assert out["total"] == out["weights"] + out["grads"] + out["optimizer"] + out["activations"], \
        "total must be the sum of weights, grads, optimizer and activations"
    return out


def expect(out, msg, **want):
    got = {k: out[k] for k in want}
    assert got == want, f"{msg}: want {want}, got {got}"


def test_seed_example(candidate):
    out = call(candidate, 13_000_000_000, "bf16", "adam", **SEED_MODEL)
    expect(out, "13B, mixed-precision Adam = 2 + 2 + 12 B/param; activations L*s*b*(34h + 5as)",
           weights=26_000_000_000, grads=26_000_000_000, optimizer=156_000_000_000,
           activations=650_955_980_800, total=858_955_980_800)


@pytest.mark.parametrize("recompute, act", [("none", 650_955_980_800), ("selective", 114_085_068_800),
                                            ("full", 6_710_886_400)])
@pytest.mark.parametrize("dtype, mult", [("bf16", 1), ("fp16", 1), ("fp32", 2)])
def test_activations(candidate, recompute, act, dtype, mult):
    out = call(candidate, 1, dtype, "adam", recompute=recompute, **SEED_MODEL)
    expect(out, f"activations with recompute={recompute!r}, dtype={dtype!r} (fp32 doubles)", activations=act * mult)


def test_no_activation_args_means_zero(candidate):
    out = call(candidate, 1000)
    expect(out, "defaults: bf16 Adam, stage 0, no activations", weights=2000, grads=2000, optimizer=12000,
           activations=0, total=16000)


@pytest.mark.parametrize("dtype, optimizer, per_param", [
    ("fp32", "adam", (4, 4, 8)), ("fp32", "adamw", (4, 4, 8)), ("fp32", "sgd", (4, 4, 4)),
    ("bf16", "adam", (2, 2, 12)), ("fp16", "adamw", (2, 2, 12)), ("bf16", "sgd", (2, 2, 8)),
    ("fp16", "sgd", (2, 2, 8)),
])
def test_bytes_per_param(candidate, dtype, optimizer, per_param):
    n = 1_000_000_007
    out = call(candidate, n, dtype, optimizer)
    w, g, o = per_param
    expect(out, f"{dtype} + {optimizer}: (weights, grads, optimizer) = {per_param} bytes/param",
           weights=w * n, grads=g * n, optimizer=o * n)


@pytest.mark.parametrize("stage, sharded", [(0, ()), (1, ("optimizer",)), (2, ("optimizer", "grads")),
                                            (3, ("optimizer", "grads", "weights"))])
def test_zero_stages(candidate, stage, sharded):
    n, dp = 7_000_000_001, 8
    shard = 875_000_001  # ceil(7_000_000_001 / 8)
    full = {"weights": 2 * n, "grads": 2 * n, "optimizer": 12 * n}
    per = {"weights": 2, "grads": 2, "optimizer": 12}
    want = {k: (per[k] * shard if k in sharded else full[k]) for k in full}
    out = call(candidate, n, "bf16", "adam", stage, dp, **SEED_MODEL)
    expect(out, f"ZeRO-{stage} on dp=8 shards {sharded or 'nothing'} to ceil(n/dp) = {shard} params", **want)
    assert out["activations"] == 650_955_980_800, "ZeRO never shards activations"


def test_random_invariants(candidate, seed):
    g = torch.Generator().manual_seed(seed)
    rint = lambda lo, hi: int(torch.randint(lo, hi, (), generator=g))
    n, dp = rint(1, 10**12), rint(1, 65)
    kw = dict(batch=rint(1, 9), seq_len=rint(1, 8193), hidden=rint(1, 8193), n_layers=rint(1, 97), n_heads=rint(1, 65))
    for dtype in ("fp32", "bf16"):
        stages = [call(candidate, n, dtype, "adam", s, dp, **kw) for s in range(4)]
        for a, b in zip(stages, stages[1:]):
            assert b["total"] <= a["total"], "a higher ZeRO stage never needs more memory"
        ones = [call(candidate, n, dtype, "adam", s, 1, **kw) for s in range(4)]
        assert all(o == ones[0] for o in ones), "with dp_size = 1 every ZeRO stage gives the same numbers"
        assert stages[3]["weights"] == -(-n // dp) * (4 if dtype == "fp32" else 2), "ZeRO-3 weights: ceil(n/dp) params"


@pytest.mark.parametrize("kwargs", [dict(dtype="int8"), dict(optimizer="adafactor"), dict(zero_stage=4),
                                    dict(zero_stage=-1), dict(dp_size=0), dict(recompute="some"),
                                    dict(n_params=-1), dict(batch=-2)])
def test_invalid(candidate, kwargs):
    args = dict(n_params=10)
    args.update(kwargs)
    n = args.pop("n_params")
    with pytest.raises(ValueError):
        candidate.training_memory(n, **args)


def benchmark_case(module, device):
    return lambda: module.training_memory(70_000_000_000, "bf16", "adam", 3, 64, **SEED_MODEL)
