"""Every family's formula against hand-computed cases, the seeds' worked examples,
catalog figures, `check`, and generation."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from drill.content.vocabulary import BLOCKS
from drill.estimate import formula
from drill.estimate.draw import Problem, generate
from drill.estimate.params import ParamError, complete
from drill.estimate.schema import families, load_dir
from drill.estimate.score import grade, solve
from drill.estimate.validate import check

PROBLEMS = Path(__file__).resolve().parents[3] / "problems"

# Parameters after the answer's own only bound the draw to what is possible (context, the GPUs'
# memory, the topology's GPU counts); they have defaults, so the answer's parameters alone solve.
REQUIRED = {
    "kv-cache": ["layers", "kv_heads", "head_dim", "seq_len", "batch", "bytes_per_elem", "context"],
    "train-memory": ["params", "zero_stage", "dp"],
    "activation-memory": ["batch", "seq_len", "hidden", "layers", "bytes_per_elem", "context"],
    "allreduce-time": ["bytes", "gpus", "bandwidth", "min_gpus", "max_gpus", "gpu_mem"],
    "pipeline-bubble": ["stages", "microbatches"],
    "spec-decode-speedup": ["alpha", "k", "draft_ms", "target_ms"],
    "matmul-intensity": ["m", "n", "k", "bytes_per_elem"],
    "train-time": ["params", "tokens", "gpus", "peak_flops", "mfu", "gpu_mem"],
}
REQUIRED_UNITS = {
    "kv-cache": "byte",
    "train-memory": "byte",
    "activation-memory": "byte",
    "allreduce-time": "s",
    "pipeline-bubble": "1",
    "spec-decode-speedup": "1",
    "matmul-intensity": "FLOP/byte",
    "train-time": "s",
}


@pytest.fixture(scope="module")
def fams():
    return {f.id: f for f in families(PROBLEMS)}


def value(fams, fid, **params):
    return solve(fams[fid], params)["value"]


def test_problems_check_clean():
    assert [str(e) for e in check(PROBLEMS)] == []


def test_at_least_20_families_over_all_blocks(fams):
    assert len(fams) >= 20
    assert {f.block for f in fams.values()} == set(BLOCKS)


@pytest.mark.parametrize("fid", sorted(REQUIRED))
def test_required_ids_parameters_and_units(fams, fid):
    fam = fams[fid]
    assert list(fam.params) == REQUIRED[fid]
    assert fam.unit == REQUIRED_UNITS[fid]


def test_describe_is_json(fams):
    rows = [f.describe() for f in fams.values()]
    json.dumps(rows)
    row = next(r for r in rows if r["id"] == "kv-cache")
    assert row["parameters"] == REQUIRED["kv-cache"] and row["unit"] == "byte" and row["block"] == "inference"


# --- hand-computed cases, one or more per family --------------------------------------

HAND = [
    (
        "kv-cache",
        dict(layers=80, kv_heads=8, head_dim=128, seq_len=8192, batch=1, bytes_per_elem=2),
        2 * 80 * 8 * 128 * 8192 * 2,
    ),
    (
        "kv-cache",
        dict(layers=32, kv_heads=32, head_dim=128, seq_len=4096, batch=8, bytes_per_elem=1),
        2 * 32 * 32 * 128 * 4096 * 8,
    ),
    ("train-memory", dict(params=7e9, zero_stage=0, dp=64), 16 * 7e9),
    ("train-memory", dict(params=7e9, zero_stage=1, dp=4), 7e9 * (2 + 2 + 12 / 4)),
    ("train-memory", dict(params=7e9, zero_stage=2, dp=4), 7e9 * (2 + 14 / 4)),
    ("train-memory", dict(params=70e9, zero_stage=3, dp=64), 70e9 * 16 / 64),
    (
        "activation-memory",
        dict(batch=2, seq_len=1024, hidden=8192, layers=80, bytes_per_elem=2),
        12 * 2 * 1024 * 8192 * 80 * 2,
    ),
    ("allreduce-time", dict(bytes=1e9, gpus=2, bandwidth=100e9), 1e9 / 100e9),
    ("allreduce-time", dict(bytes=14e9, gpus=8, bandwidth=50e9), 2 * 7 / 8 * 14e9 / 50e9),
    ("pipeline-bubble", dict(stages=8, microbatches=32), 7 / 39),
    ("spec-decode-speedup", dict(alpha=0.5, k=1, draft_ms=1, target_ms=10), 1.5 * 10 / 11),
    (
        "matmul-intensity",
        dict(m=1, n=4096, k=4096, bytes_per_elem=2),
        2 * 4096 * 4096 / ((4096 + 4096 * 4096 + 4096) * 2),
    ),
    (
        "train-time",
        dict(params=70e9, tokens=15e12, gpus=16384, peak_flops=989.4e12, mfu=0.4),
        6 * 70e9 * 15e12 / (16384 * 989.4e12 * 0.4),
    ),
    ("kv-per-token", dict(layers=80, kv_heads=8, head_dim=128, bytes_per_elem=2), 327680),
    (
        "serving-gpus",
        dict(
            params=8e9,
            layers=32,
            kv_heads=8,
            head_dim=128,
            weight_bytes=2,
            kv_bytes=2,
            users=100,
            seq_len=4096,
            gpu_mem=80e9,
            usable=0.9,
        ),
        math.ceil((16e9 + 100 * 4096 * 131072) / 72e9),
    ),
    (
        "decode-tokens-per-s",
        dict(params=70e9, bytes_per_param=2, tp=4, hbm_bw=3.35e12, total_params=70e9, gpu_mem=80e9),
        4 * 3.35e12 / 140e9,
    ),
    ("roofline-crossover", dict(peak_flops=2.25e15, hbm_bw=8e12), 281.25),
    ("attainable-flops", dict(intensity=16, peak_flops=989.4e12, hbm_bw=3.35e12), 16 * 3.35e12),
    ("attainable-flops", dict(intensity=512, peak_flops=989.4e12, hbm_bw=3.35e12), 989.4e12),
    ("zero3-comm-volume", dict(params=70e9, dp=64, bytes_per_elem=2), 3 * 63 / 64 * 140e9),
    (
        "moe-alltoall-volume",
        dict(tokens=8192, top_k=2, hidden=4096, ep=8, bytes_per_elem=2, experts=8),
        2 * 8192 * 2 * 4096 * 2 * 7 / 8,
    ),
    (
        "moe-alltoall-time",
        dict(tokens=4096, top_k=8, hidden=7168, ep=64, bytes_per_elem=1, bandwidth=50e9, local_gpus=8),
        2 * 4096 * 8 * 7168 * 56 / 64 / 50e9,
    ),
    (
        "gqa-kv-saved",
        dict(layers=32, heads=32, kv_heads=8, head_dim=128, seq_len=4096, batch=1, bytes_per_elem=2),
        2 * 32 * 24 * 128 * 4096 * 2,
    ),
    # 4-bit weights + an FP16 scale and an FP16 zero-point per group (the INT4 convention's layout)
    ("quantized-size", dict(params=8e9, bits=4, group_size=64, scale_bytes=2), 4e9 + 8e9 / 64 * (2 + 2)),
    (
        "lora-params",
        dict(layers=80, hidden=8192, heads=64, kv_heads=8, head_dim=128, rank=16),
        80 * 16 * (8192 + 8192 + 8192 + 1024),
    ),
    (
        "checkpoint-memory",
        dict(batch=4, seq_len=4096, hidden=8192, layers=80, bytes_per_elem=2),
        92 * 4 * 4096 * 8192 * 2,
    ),
    (
        "prefix-cache-memory",
        dict(requests=32, prefix_len=1000, layers=80, kv_heads=8, head_dim=128, bytes_per_elem=2),
        31 * 1000 * 327680,
    ),
    ("saturating-batch", dict(peak_flops=312e12, hbm_bw=2.039e12, bytes_per_param=1), 312e12 / 2.039e12 / 2),
    (
        "inference-memory",
        dict(params=8e9, layers=32, kv_heads=8, head_dim=128, seq_len=8192, batch=4, bytes_per_elem=1),
        8e9 + 2 * 32 * 8 * 128 * 8192 * 4,
    ),
    (
        "prefill-time",
        dict(params=70e9, prompt_tokens=2048, tp=8, peak_flops=989.4e12, mfu=0.5),
        2 * 70e9 * 2048 / (8 * 989.4e12 * 0.5),
    ),
    ("train-flops", dict(params=70e9, tokens=15e12), 6.3e24),
    (
        "tp-allreduce-time",
        dict(batch=8, seq_len=2048, hidden=4096, bytes_per_elem=2, tp=2, bandwidth=300e9),
        2 * 2 * 0.5 * 8 * 2048 * 4096 * 2 / 300e9,
    ),
    ("mfu", dict(params=8e9, tokens_per_s=1e6, gpus=1024, peak_flops=989.4e12), 6 * 8e9 * 1e6 / (1024 * 989.4e12)),
]


def test_every_family_has_a_hand_case(fams):
    assert {fid for fid, _, _ in HAND} == set(fams)


@pytest.mark.parametrize("fid, params, expected", HAND, ids=[f"{h[0]}-{i}" for i, h in enumerate(HAND)])
def test_hand_computed(fams, fid, params, expected):
    assert value(fams, fid, **params) == pytest.approx(expected, rel=1e-9)


# --- the seeds' worked examples (seed 001 unless noted) ---------------------------------

SEEDS_RIGHT = [
    # Ch. 8: LLaMA-7B KV cache at 2K/4K/8K/32K = 1.1 / 2.1 / 4.3 / 17.2 GB (the 7B shape: Llama-2-7B's
    # context stops at 4096, so the longer two are the shape's arithmetic, not that model)
    ("kv-cache", dict(model="llama-2-7b", seq_len=2048, batch=1, bytes_per_elem=2), 1.1e9, 0.05),
    ("kv-cache", dict(model="llama-2-7b", seq_len=4096, batch=1, bytes_per_elem=2), 2.1e9, 0.05),
    ("kv-cache", dict(layers=32, kv_heads=32, head_dim=128, seq_len=8192, batch=1, bytes_per_elem=2), 4.3e9, 0.01),
    ("kv-cache", dict(layers=32, kv_heads=32, head_dim=128, seq_len=32768, batch=1, bytes_per_elem=2), 17.2e9, 0.01),
    # Ch. 5: 70B over 64 GPUs fully sharded = 17.5 GB; Ch. 11: 7B ≥ 112 GB
    ("train-memory", dict(params=70e9, zero_stage=3, dp=64), 17.5e9, 1e-9),
    ("train-memory", dict(params=7e9, zero_stage=0, dp=1), 112e9, 1e-9),
    # Ch. 11 drill 1: 13B-class activations ~80 GB
    ("activation-memory", dict(batch=4, seq_len=4096, hidden=5120, layers=40, bytes_per_elem=2), 80e9, 0.01),
    # Ch. 5 / drill 4: 0.49 s and 1.96 s
    ("allreduce-time", dict(bytes=14e9, gpus=8, bandwidth=50e9), 0.49, 1e-9),
    ("allreduce-time", dict(bytes=14e9, gpus=8, bandwidth="100 Gb/s"), 1.96, 1e-9),
    # Ch. 11 template 1: 61 days
    ("train-time", dict(params=7e9, tokens=1e12, gpus=64, peak_flops=312e12, mfu=0.4), 61 * 86400, 0.01),
    ("train-flops", dict(params=7e9, tokens=1e12), 4.2e22, 1e-9),
    # Ch. 1: A100 ridge 156 FLOP/byte; LayerNorm 0.67 TFLOP/s attainable
    ("roofline-crossover", dict(peak_flops=312e12, hbm_bw=2e12), 156, 1e-9),
    ("attainable-flops", dict(intensity=4 / 12, peak_flops=312e12, hbm_bw=2e12), 0.667e12, 0.01),
    # Ch. 11 template 2: 70B BF16 + KV (as the seed assumes 64 KV heads) = 151 GB
    (
        "inference-memory",
        dict(params=70e9, layers=80, kv_heads=64, head_dim=128, seq_len=4096, batch=1, bytes_per_elem=2),
        151e9,
        0.01,
    ),
]


@pytest.mark.parametrize(
    "fid, params, seed_says, rel", SEEDS_RIGHT, ids=[f"{s[0]}-{i}" for i, s in enumerate(SEEDS_RIGHT)]
)
def test_seed_examples_that_are_right(fams, fid, params, seed_says, rel):
    assert value(fams, fid, **params) == pytest.approx(seed_says, rel=rel)


def test_seed_mistakes_are_not_copied(fams):
    """Where seed 001 is wrong, the families hold the recomputed figure."""
    # Ch. 8 prints 2.6 GB for LLaMA-3 70B at 8K; the formula (and the seed's own code) gives 2.68 GB
    assert value(fams, "kv-cache", model="llama-3-70b", seq_len=8192, batch=1, bytes_per_elem=2) == 2684354560
    # Ch. 8 prints "Speedup: 2.5x, Expected tokens/step: 3.4" for α=0.8, k=5, 2 ms / 30 ms: it is 2.77× and 3.69
    s = value(fams, "spec-decode-speedup", alpha=0.8, k=5, draft_ms=2, target_ms=30)
    assert s == pytest.approx((1 - 0.8**6) / 0.2 * 30 / 40) and round(s, 2) == 2.77
    # Ch. 1 prints intensity 2730.7 for a 4096³ BF16 matmul; it is 1365.3 (2 bytes per element)
    assert value(fams, "matmul-intensity", m=4096, n=4096, k=4096, bytes_per_elem=2) == pytest.approx(4096 / 3)
    # Ch. 9 / Ch. 11 "KV cache per token ~16KB (7B, BF16)": it is 512 KiB (the 32 heads were left out)
    assert value(fams, "kv-per-token", model="llama-2-7b", bytes_per_elem=2) == 2 * 32 * 32 * 128 * 2 == 32 * 16384
    # Ch. 2 says 6.0 GB of activations for 7B at batch 1, seq 2048: it is 6.44 GB (= 6.0 GiB)
    assert value(
        fams, "activation-memory", batch=1, seq_len=2048, hidden=4096, layers=32, bytes_per_elem=2
    ) == pytest.approx(6 * 2**30)
    # Ch. 5 tip: "140 + 140 + 560 + 560 + 560 = 1.96 TB" for 70B with Adam; it is 16 B/param = 1.12 TB,
    # more than any GPU holds: solve refuses it as one GPU's share, so the formula is asked directly
    train_memory = fams["train-memory"]
    assert formula.evaluate(train_memory, complete(train_memory, dict(params=70e9, zero_stage=0, dp=1))) == 1.12e12
    with pytest.raises(ParamError, match=r"1\.12 TB of model state, more than any GPU"):
        value(fams, "train-memory", params=70e9, zero_stage=0, dp=1)
    # Ch. 9 capacity plan: 7B INT4, 1000 users × 1K tokens on A100-80GB says 2 GPUs (KV 92.9 GB);
    # its own 0.5 MB/token rule gives 650 GB of KV; with Llama-2-7B it is 9 GPUs
    assert (
        value(
            fams,
            "serving-gpus",
            model="llama-2-7b",
            gpu="a100-80gb",
            precision="int4",
            kv_bytes=2,
            users=1000,
            seq_len=1000,
            usable=0.8,
        )
        == 9
    )


# --- catalogs ----------------------------------------------------------------------------


def test_catalog_figures():
    _, catalogs, errors = load_dir(PROBLEMS)
    assert not errors
    gpus = catalogs["gpus"].entries
    assert gpus["a100-40gb"]["bf16_flops"] == 312e12 and gpus["a100-40gb"]["hbm_bw"] == 1555e9
    assert gpus["a100-80gb"]["hbm_bw"] == 2039e9 and gpus["a100-80gb"]["hbm_bytes"] == 80e9
    assert gpus["h100-sxm"]["bf16_flops"] == 989.4e12 and gpus["h100-sxm"]["hbm_bw"] == 3.35e12
    assert gpus["h200"]["bf16_flops"] == gpus["h100-sxm"]["bf16_flops"]
    assert gpus["h200"]["hbm_bytes"] == 141e9 and gpus["h200"]["hbm_bw"] == 4.8e12
    assert gpus["b200"]["bf16_flops"] == 2.25e15
    assert gpus["v100"]["bf16_flops"] == 125e12
    assert [gpus[g]["nvlink_bw"] for g in ("v100", "a100-80gb", "h100-sxm", "h200", "b200")] == [
        300e9,
        600e9,
        900e9,
        900e9,
        1.8e12,
    ]
    models = catalogs["models"].entries
    for mid in (
        "llama-2-7b",
        "llama-2-70b",
        "llama-3-8b",
        "llama-3-70b",
        "llama-3-1-405b",
        "mistral-7b",
        "mixtral-8x7b",
        "deepseek-v3",
    ):
        for field in ("layers", "hidden", "heads", "kv_heads", "head_dim", "vocab", "total_params", "active_params"):
            assert models[mid][field] > 0, (mid, field)


def _dense_params(m) -> int:
    """Llama-style parameter count: untied embeddings + attention + SwiGLU MLP + 2 norms per layer + final norm."""
    h, kv = m["hidden"], m["kv_heads"] * m["head_dim"]
    attn = h * m["heads"] * m["head_dim"] * 2 + 2 * h * kv
    return 2 * m["vocab"] * h + m["layers"] * (attn + 3 * h * m["ffn"] + 2 * h) + h


@pytest.mark.parametrize(
    "mid", ["llama-2-7b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "llama-3-1-405b", "mistral-7b"]
)
def test_dense_param_counts_match_architecture(mid):
    _, catalogs, _ = load_dir(PROBLEMS)
    m = catalogs["models"].entries[mid]
    assert m["total_params"] == _dense_params(m) == m["active_params"]


def test_mixtral_counts_match_architecture():
    _, catalogs, _ = load_dir(PROBLEMS)
    m = catalogs["models"].entries["mixtral-8x7b"]
    h, kv = m["hidden"], m["kv_heads"] * m["head_dim"]
    attn = 2 * h * h + 2 * h * kv
    expert = 3 * h * m["ffn"]
    per_layer = lambda n: attn + n * expert + h * m["experts"] + 2 * h  # noqa: E731
    emb = 2 * m["vocab"] * h + h
    assert m["total_params"] == emb + m["layers"] * per_layer(8)
    assert m["active_params"] == emb + m["layers"] * per_layer(2)


# --- generation ---------------------------------------------------------------------------


def test_generation_is_seeded_and_varied(fams):
    for fam in fams.values():
        a = generate(fam, random.Random(42))
        b = generate(fam, random.Random(42))
        assert a == b
        truths = {generate(fam, random.Random(s)).truth for s in range(30)}
        assert len(truths) > 3, fam.id


def test_generation_many_samples(fams):
    for fam in fams.values():
        rng = random.Random(7)
        for _ in range(150):
            p = generate(fam, rng)
            assert math.isfinite(p.truth) and p.truth > 0
            assert "{" not in p.prompt and "}" not in p.prompt
            assert p.pretty
            json.dumps(TypeAdapter(Problem).dump_python(p, mode="json"))
            # the stored params round-trip through solve
            assert solve(fam, p.params)["value"] == pytest.approx(p.truth, rel=1e-12)


def test_pretty_truth_grades_correct(fams):
    """The answer as the app prints it, typed back in, is graded correct."""
    for fam in fams.values():
        rng = random.Random(11)
        for _ in range(40):
            p = generate(fam, rng)
            result = grade(fam, p.params, p.pretty)
            assert result.error is None, (fam.id, p.pretty, result.error)
            assert result.correct, (fam.id, p.pretty, result.log_error)
