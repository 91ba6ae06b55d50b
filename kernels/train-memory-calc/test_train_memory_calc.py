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


PER_PARAM = {("fp32", "adam"): (4, 4, 8), ("fp32", "adamw"): (4, 4, 8), ("fp32", "sgd"): (4, 4, 4),
             ("bf16", "adam"): (2, 2, 12), ("bf16", "adamw"): (2, 2, 12), ("bf16", "sgd"): (2, 2, 8),
             ("fp16", "adam"): (2, 2, 12), ("fp16", "adamw"): (2, 2, 12), ("fp16", "sgd"): (2, 2, 8)}


def expected(n, dtype, optimizer, stage, dp, b, s, h, L, a, recompute):
    """The prompt's rules, written out (integers only)."""
    w, g, o = PER_PARAM[dtype, optimizer]
    shard = -(-n // dp)
    per = {"none": 34 * h + 5 * a * s, "selective": 34 * h, "full": 2 * h}[recompute]
    act = L * s * b * per * (2 if dtype == "fp32" else 1)
    out = {"weights": w * (shard if stage >= 3 else n), "grads": g * (shard if stage >= 2 else n),
           "optimizer": o * (shard if stage >= 1 else n), "activations": act}
    out["total"] = sum(out.values())
    return out


def test_random_exact(candidate, seed):
    """Every argument matters: distinct random values for all of them, checked exactly."""
    g = torch.Generator().manual_seed(seed)
    rint = lambda lo, hi: int(torch.randint(lo, hi, (), generator=g))
    pick = lambda seq: seq[rint(0, len(seq))]
    for _ in range(40):
        n, dp = rint(0, 10**12), rint(1, 130)
        b, s, h, L, a = rint(0, 17), rint(1, 8193), rint(1, 8193), rint(1, 97), rint(1, 129)
        dtype, optimizer = pick(["fp32", "bf16", "fp16"]), pick(["adam", "adamw", "sgd"])
        stage, recompute = rint(0, 4), pick(["none", "selective", "full"])
        out = call(candidate, n, dtype, optimizer, stage, dp, batch=b, seq_len=s, hidden=h, n_layers=L,
                   n_heads=a, recompute=recompute)
        want = expected(n, dtype, optimizer, stage, dp, b, s, h, L, a, recompute)
        assert out == want, (
            f"training_memory({n}, {dtype!r}, {optimizer!r}, zero_stage={stage}, dp_size={dp}, batch={b}, "
            f"seq_len={s}, hidden={h}, n_layers={L}, n_heads={a}, recompute={recompute!r}): want {want}, got {out}")


@pytest.mark.parametrize("n, dp", [(2**60 + 1, 2), (10**18 + 1, 3), (2**53 + 3, 4), (12345678901234567891, 7)])
def test_exact_ceiling_for_huge_counts(candidate, n, dp):
    shard = -(-n // dp)
    out = call(candidate, n, "bf16", "adam", 3, dp)
    expect(out, f"ceil({n} / {dp}) must be the exact integer {shard} (float division rounds at this size)",
           weights=2 * shard, grads=2 * shard, optimizer=12 * shard)


def test_zero_counts_are_valid(candidate):
    out = call(candidate, 0, "fp32", "sgd", 3, 5, batch=0, seq_len=0, hidden=0, n_layers=0, n_heads=0)
    expect(out, "zero is a valid count (only negative counts are rejected)", weights=0, grads=0, optimizer=0,
           activations=0, total=0)
    out = call(candidate, 10, batch=2, seq_len=3, hidden=4, n_layers=1, n_heads=0)
    expect(out, "n_heads = 0 is valid: no attention-score term", activations=1 * 3 * 2 * 34 * 4)


INVALID = [
    dict(dtype="int8"), dict(dtype="fp8"), dict(dtype="BF16"), dict(optimizer="adafactor"), dict(optimizer="Adam"),
    dict(zero_stage=4), dict(zero_stage=-1), dict(zero_stage=7), dict(dp_size=0), dict(dp_size=-3),
    dict(recompute="some"), dict(recompute=""), dict(n_params=-1), dict(batch=-2), dict(seq_len=-1),
    dict(hidden=-5), dict(n_layers=-1), dict(n_heads=-1),
]


@pytest.mark.parametrize("kwargs", INVALID, ids=lambda kw: "-".join(f"{k}={v!r}" for k, v in kw.items()))
@pytest.mark.parametrize("with_model", [False, True], ids=["no_activations", "with_activations"])
def test_invalid(candidate, kwargs, with_model):
    """Each bad input alone (everything else valid) raises ValueError, with or without activation args."""
    args = dict(n_params=10)
    if with_model:
        args.update(batch=2, seq_len=8, hidden=16, n_layers=2, n_heads=4)
    args.update(kwargs)
    n = args.pop("n_params")
    with pytest.raises(ValueError):
        candidate.training_memory(n, **args)
        pytest.fail(f"training_memory({n}, **{args}) must raise ValueError ({kwargs} is invalid)")


def benchmark_case(module, device):
    return lambda: module.training_memory(70_000_000_000, "bf16", "adam", 3, 64, **SEED_MODEL)
