"""Scoring, dimension messages, slips, worked solutions, SM-2 quality and the CLI shapes."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from drill.estimate import score
from drill.estimate.draw import generate
from drill.estimate.params import ParamError, parse_assignments
from drill.estimate.result import GradeResult, quality_from_score
from drill.estimate.schema import families, family
from drill.estimate.score import score_from_log_error

PROBLEMS = Path(__file__).resolve().parents[3] / "problems"
KV = {"model": "llama-3-70b", "seq_len": 8192, "batch": 1, "bytes_per_elem": 2}  # 2.68 GB


@pytest.fixture(scope="module")
def fams():
    return {f.id: f for f in families(PROBLEMS)}


def grade(fams, fid, params, answer):
    return score.grade(fams[fid], params, answer)


def test_grade_contract_shape(fams):
    r = grade(fams, "kv-cache", KV, "2.7 GB")
    for key, kind in {"correct": bool, "score": float, "truth": float, "parsed": float}.items():
        assert isinstance(getattr(r, key), kind), key
    assert r.error is None
    json.dumps(TypeAdapter(GradeResult).dump_python(r, mode="json"))
    assert r.correct and r.score == 1.0 and r.truth == 2684354560 and r.parsed == 2.7e9


def test_solve_contract_shape(fams):
    r = score.solve(
        fams["kv-cache"], parse_assignments(["model=llama-3-70b", "seq_len=8192", "batch=1", "bytes_per_elem=2"])
    )
    assert r == {"value": 2684354560.0, "unit": "byte", "pretty": "2.68 GB"}
    json.dumps(r)


@pytest.mark.parametrize(
    "answer", ["2.7 GB", "2.5GiB", "2*80*8*128*8192*2 bytes", "2.68e9", "2684354560", "2684 MB", "2.6 GB", "2.8 GB"]
)
def test_correct_forms(fams, answer):
    assert grade(fams, "kv-cache", KV, answer).correct


def test_wrong_dimension_message(fams):
    r = grade(fams, "kv-cache", KV, "0.49 s")
    assert r.error == "that is a time; the question asks for bytes"
    assert r.parsed is None and r.score == 0.0 and not r.correct
    assert r.worked  # still shows the solution
    r = grade(fams, "allreduce-time", {"bytes": 14e9, "gpus": 8, "bandwidth": 50e9}, "24.5 GB")
    assert r.error == "that is a size in bytes; the question asks for a time"
    r = grade(fams, "train-flops", {"params": 7e9, "tokens": 1e12}, "4.2e22 FLOP/s")
    assert "compute rate" in r.error


def test_bare_number_is_in_base_units(fams):
    assert grade(fams, "allreduce-time", {"bytes": 14e9, "gpus": 8, "bandwidth": 50e9}, "0.49").correct
    r = grade(fams, "train-time", dict(params=7e9, tokens=1e12, gpus=64, peak_flops=312e12, mfu=0.4), "61")
    assert not r.correct and "days" in r.slip
    assert grade(
        fams, "train-time", dict(params=7e9, tokens=1e12, gpus=64, peak_flops=312e12, mfu=0.4), "61 days"
    ).correct


def test_percent_fraction_and_ratio(fams):
    params = {"stages": 4, "microbatches": 8}  # 3/11 = 27.3%
    for answer in ("27%", "27.3 %", "0.273", "3/11"):
        assert grade(fams, "pipeline-bubble", params, answer).correct, answer
    spec = {"alpha": 0.8, "k": 5, "draft_ms": 2, "target_ms": 30}  # 2.77x
    for answer in ("2.77x", "2.8×", "2.77"):
        assert grade(fams, "spec-decode-speedup", spec, answer).correct, answer
    assert not grade(fams, "spec-decode-speedup", spec, "2.5x").correct  # the seed's figure


def test_negative_and_zero_answers(fams):
    for answer in ("-2.7 GB", "0", "0 GB"):
        r = grade(fams, "kv-cache", KV, answer)
        assert r.error == "the answer must be a positive number"


def test_score_curve():
    assert score_from_log_error(0.0, 0.05) == 1.0
    assert score_from_log_error(0.05, 0.05) == 1.0
    assert score_from_log_error(0.0501, 0.05) == pytest.approx(0.8, abs=1e-3)
    assert score_from_log_error(math.log10(2), 0.05) == pytest.approx(0.8 * (1 - (0.30103 - 0.05) / 0.95), abs=1e-3)
    assert score_from_log_error(1.0, 0.05) == 0.0
    assert score_from_log_error(3.0, 0.05) == 0.0
    assert score_from_log_error(float("nan"), 0.05) == 0.0
    xs = [i / 100 for i in range(120)]
    scores = [score_from_log_error(x, 0.05) for x in xs]
    assert scores == sorted(scores, reverse=True)


def test_partial_credit_is_symmetric(fams):
    hi = grade(fams, "kv-cache", KV, f"{2684354560 * 2} B")
    lo = grade(fams, "kv-cache", KV, f"{2684354560 / 2} B")
    assert hi.score == lo.score and 0 < hi.score < 0.8


@pytest.mark.parametrize(
    "score, quality",
    [(1.0, 5), (0.79, 4), (0.65, 4), (0.6, 3), (0.55, 3), (0.4, 2), (0.3, 2), (0.1, 1), (0.0, 0)],
)
def test_quality_from_score(score, quality):
    assert quality_from_score(score) == quality


def test_quality_in_grade(fams):
    assert grade(fams, "kv-cache", KV, "2.68 GB").quality == 5
    assert grade(fams, "kv-cache", KV, "27 GB").quality == 0


# --- slips ------------------------------------------------------------------------------


def slip(fams, fid, params, answer):
    r = grade(fams, fid, params, answer)
    assert not r.correct
    return r.slip or ""


def test_slip_forgot_k_and_v(fams):
    assert "2 for K and V" in slip(fams, "kv-cache", KV, "1.34 GB")


def test_slip_bits_vs_bytes(fams):
    assert "bits" in slip(fams, "kv-cache", KV, "2.68 Gb")
    assert "bits" in slip(fams, "allreduce-time", {"bytes": 14e9, "gpus": 8, "bandwidth": 50e9}, "3.92 s")


def test_slip_factor_1000(fams):
    assert "prefixes" in slip(fams, "kv-cache", KV, "2.68 TB")
    assert "prefixes" in slip(fams, "allreduce-time", {"bytes": 14e9, "gpus": 8, "bandwidth": 50e9}, "490 s")


def test_slip_missing_layer_count(fams):
    params = dict(batch=1, seq_len=2048, hidden=4096, layers=32, bytes_per_elem=2)
    assert "layers = 32" in slip(fams, "activation-memory", params, f"{6442450944 / 32} B")


def test_slip_family_specific(fams):
    tt = dict(params=7e9, tokens=1e12, gpus=64, peak_flops=312e12, mfu=0.4)
    assert "6·N·D" in slip(fams, "train-time", tt, "20.3 days")
    assert "ring factor" in slip(fams, "allreduce-time", {"bytes": 14e9, "gpus": 8, "bandwidth": 50e9}, "0.28 s")
    assert "draft" in slip(fams, "spec-decode-speedup", {"alpha": 0.8, "k": 5, "draft_ms": 2, "target_ms": 30}, "3.69x")
    assert "unsharded" in slip(fams, "train-memory", {"params": 70e9, "zero_stage": 3, "dp": 64}, "1.12 TB")
    assert "2 FLOP" in slip(
        fams, "matmul-intensity", {"m": 4096, "n": 4096, "k": 4096, "bytes_per_elem": 4}, "341 FLOP/byte"
    )


def test_slip_divided_by_mfu_missing(fams):
    tt = dict(params=7e9, tokens=1e12, gpus=64, peak_flops=312e12, mfu=0.25)
    assert "mfu = 0.25" in slip(fams, "train-time", tt, f"{5258413.46 * 0.4 / 0.25 * 0.25} s")


def test_gib_note_on_a_correct_answer(fams):
    r = grade(fams, "kv-cache", KV, "2.5 GB")
    assert r.correct and "GiB" in r.slip


@pytest.mark.parametrize(
    "fid, params, answer",
    [
        ("kv-cache", KV, "2.68 GB"),  # the decimal figure, labelled decimal
        ("kv-cache", KV, "2.5 GiB"),  # the binary figure, labelled binary
        ("kv-cache", KV, "2500 MB"),  # the GiB number in MB: a different prefix from the one the note names
        # 14 GB over 8 GPUs at 50 GB/s is 0.49 s: 0.49 × 2^30/1e9 s is correct, and no byte prefix at all
        ("allreduce-time", {"bytes": 14e9, "gpus": 8, "bandwidth": 50e9}, f"{0.49 * 2**30 / 1e9} s"),
        ("train-flops", {"params": 7e9, "tokens": 1e12}, f"{4.2e22 * 1e9 / 2**30} FLOP"),
    ],
)
def test_no_binary_prefix_note_where_the_prefixes_were_not_confused(fams, fid, params, answer):
    """The note is for a size in bytes whose number is the truth in the other kind of prefix,
    labelled with the unit the note names: never on seconds or FLOP, never on a right label."""
    result = grade(fams, fid, params, answer)
    assert result.correct and result.slip is None, (answer, result.slip)


def test_binary_prefix_note_names_the_confusion_both_ways(fams):
    assert "answer in GB, labelled GiB" in grade(fams, "kv-cache", KV, "2.68 GiB").slip
    assert "answer in GiB, labelled GB" in grade(fams, "kv-cache", KV, "2.5 GB").slip


def test_no_slip_for_unrelated_error(fams):
    assert grade(fams, "kv-cache", KV, "3.9 GB").slip is None


# --- worked solution --------------------------------------------------------------------


def test_worked_solution(fams):
    r = grade(fams, "kv-cache", KV, "2.5 GB")
    text = "\n".join(r.worked)
    assert "2 (K and V) · layers" in text
    assert "2 · 80 · 8 · 128 · 8192 · 1 · 2" in text
    assert "2.68 GB" in text and "2.5 GiB" in text
    assert r.worked[-1].startswith("Answer: 2.68 GB") and "yours: 2.5 GB" in r.worked[-1]


def test_worked_solution_every_family(fams):
    import random

    for fam in fams.values():
        p = generate(fam, random.Random(3))
        r = score.grade(fam, p.params, "1")
        assert len(r.worked) >= 2 and r.worked[-1].startswith("Answer: ")
        assert all("{" not in line for line in r.worked)


# --- parameters (the CLI's key=value) -------------------------------------------------------


def test_parse_assignments():
    assert parse_assignments(["a=1", "model = llama-3-70b"]) == {"a": "1", "model": "llama-3-70b"}
    with pytest.raises(ParamError, match="key=value"):
        parse_assignments(["a"])
    with pytest.raises(ParamError, match="twice"):
        parse_assignments(["a=1", "a=2"])


def test_param_values_with_units_and_expressions(fams):
    r = score.solve(fams["allreduce-time"], {"bytes": "14 GB", "gpus": "8", "bandwidth": "400 Gb/s"})
    assert r["value"] == pytest.approx(0.49)
    r = score.solve(
        fams["kv-cache"],
        {"layers": "80", "kv_heads": "8", "head_dim": "2**7", "seq_len": "8192", "batch": "1", "bytes_per_elem": "2"},
    )
    assert r["value"] == 2684354560


def test_catalog_names(fams):
    for name in ("llama-3-70b", "Llama-3-70B", "LLAMA-3-70B"):
        assert score.solve(fams["kv-per-token"], {"model": name, "bytes_per_elem": 2})["value"] == 327680
    assert (
        score.solve(fams["kv-per-token"], {"model": "Llama-3.1-405B", "bytes_per_elem": 2})["value"]
        == 2 * 126 * 8 * 128 * 2
    )
    # explicit values win over the catalog's
    assert (
        score.solve(fams["kv-per-token"], {"model": "llama-3-70b", "layers": 40, "bytes_per_elem": 2})["value"]
        == 163840
    )


@pytest.mark.parametrize(
    "fid, params, message",
    [
        ("kv-cache", {"layers": 80}, "missing parameter"),
        ("kv-cache", {"model": "gpt-5", "seq_len": 1, "batch": 1, "bytes_per_elem": 2}, "unknown models entry"),
        ("kv-cache", {"model": "deepseek-v3", "seq_len": 1, "batch": 1, "bytes_per_elem": 2}, "MLA"),
        (
            "kv-cache",
            {"model": "llama-3-70b", "seq_len": 8192, "batch": 1, "bytes_per_elem": 2, "colour": 3},
            "unknown parameter",
        ),
        (
            "kv-cache",
            {"layers": "80.5", "kv_heads": 8, "head_dim": 128, "seq_len": 1, "batch": 1, "bytes_per_elem": 2},
            "whole number",
        ),
        (
            "kv-cache",
            {"layers": "-80", "kv_heads": 8, "head_dim": 128, "seq_len": 1, "batch": 1, "bytes_per_elem": 2},
            "positive",
        ),
        (
            "kv-cache",
            {
                "layers": "__import__('os')",
                "kv_heads": 8,
                "head_dim": 128,
                "seq_len": 1,
                "batch": 1,
                "bytes_per_elem": 2,
            },
            "layers",
        ),
        ("train-memory", {"params": 7e9, "zero_stage": 4, "dp": 8}, "between 0 and 3"),
        ("allreduce-time", {"bytes": 1e9, "gpus": 8, "bandwidth": "50 s"}, "that is a time"),
        ("spec-decode-speedup", {"alpha": 1, "k": 4, "draft_ms": 1, "target_ms": 10}, "between 0 and 0.99"),
    ],
)
def test_param_errors(fams, fid, params, message):
    with pytest.raises(ParamError, match=message):
        score.solve(fams[fid], params)
    with pytest.raises(ParamError):
        score.grade(fams[fid], params, "1 GB")


def test_family_lookup():
    assert family(PROBLEMS, "kv-cache").id == "kv-cache"
    with pytest.raises(KeyError):
        family(PROBLEMS, "nope")
