"""Numbers typed the natural way: "about" signs, times-ten notation and arithmetic with units inside,
the units carried through and the result's dimension graded against the question's."""

from __future__ import annotations

from pathlib import Path

import pytest

from drill.estimate.answer_check import check_answer
from drill.estimate.parser import AnswerError, parse_answer, parse_value
from drill.estimate.schema import family
from drill.estimate.score import grade
from drill.estimate.units import BANDWIDTH, BYTE, NONE, PER_SECOND, SECOND

PROBLEMS = Path(__file__).resolve().parents[3] / "problems"
KV = {"model": "llama-3-70b", "seq_len": 8192, "batch": 1, "bytes_per_elem": 2}  # 2*80*8*128*8192*2 B
ALLREDUCE = {"bytes": 14e9, "gpus": 8, "bandwidth": 50e9}  # 2*(8-1)/8 * 14e9 / 50e9 = 0.49 s


@pytest.mark.parametrize(
    "text, want, value",
    [
        ("~2.7 GB", BYTE, 2.7e9),
        ("~= 2.7 GB", BYTE, 2.7e9),
        ("≈2.7 GB", BYTE, 2.7e9),
        ("≈ 2.7 GB", BYTE, 2.7e9),
        ("about 2.7 GB", BYTE, 2.7e9),
        ("2.7x10^9 B", BYTE, 2.7e9),
        ("2.7 x 10^9 B", BYTE, 2.7e9),
        ("2.7×10^9 B", BYTE, 2.7e9),
        ("2.7 × 10**9 bytes", BYTE, 2.7e9),
        ("6 GB / (300 GB/s)", SECOND, 6e9 / 300e9),
        ("6 GB / 300 GB/s", SECOND, 6e9 / 300e9),
        ("2*3/4*4GB / 300GB/s", SECOND, (2 * 3 / 4 * 4e9) / 300e9),
        ("2 GB * 3", BYTE, 6e9),
        ("(2 GB)", BYTE, 2e9),
        ("(4+4) GB", BYTE, 8e9),
        ("1 GB + 500 MB", BYTE, 1.5e9),
        ("2 GiB - 1 GiB", BYTE, 2**30),
        ("14 GB / 0.49 s", BANDWIDTH, 14e9 / 0.49),
        ("1e9 B / (50 GB/s)", SECOND, 0.02),
        ("100 tokens / 2 s", PER_SECOND, 50.0),
        ("3 GB / 1 GB", NONE, 3.0),
    ],
)
def test_natural_forms_carry_their_units(text, want, value):
    assert parse_answer(text).in_base_units(want) == (pytest.approx(value, rel=1e-12), want)


def test_a_ratio_x_after_the_last_number_is_still_a_ratio():
    assert parse_answer("2.77x").in_base_units(NONE) == (pytest.approx(2.77), NONE)


@pytest.mark.parametrize(
    "text, message",
    [
        ("2 GB + 3 s", "cannot add a time to a size in bytes"),
        ("1 + 1 GB", "cannot add a size in bytes to a plain number"),
        ("(2 GB)^2", "only a plain number can be raised to a power"),
        ("2^(3 s)", "only a plain number can be raised to a power"),
        ("0x10", "operator between numbers"),
        ("6 GB / (0 GB/s)", "division by zero"),
        ("GB / s", "expected a number before the unit 'GB'"),
    ],
)
def test_arithmetic_that_does_not_add_up_is_refused(text, message):
    with pytest.raises(AnswerError, match=message):
        parse_answer(text)


def test_the_result_dimension_is_graded_against_the_question():
    with pytest.raises(AnswerError, match="that is a quantity in byte/s\\^2; the question asks for a bandwidth"):
        parse_value("2 GB/s/s", BANDWIDTH)
    assert check_answer("s", "6 GB / (300 GB/s)") is None
    assert check_answer("byte", "6 GB / (300 GB/s)") == "that is a time; the question asks for bytes"


@pytest.fixture(scope="module")
def kv_cache():
    return family(PROBLEMS, "kv-cache")


@pytest.fixture(scope="module")
def allreduce():
    return family(PROBLEMS, "allreduce-time")


@pytest.mark.parametrize(
    "text, parsed",
    [
        ("~2.68 GB", 2.68e9),
        ("≈2.68 GB", 2.68e9),
        ("2.68x10^9 B", 2.68e9),
        ("2.68×10^9 B", 2.68e9),
        ("2*80*8*128*8192*2 B", 2684354560),
        ("80 * 2*8*128 * 2 B * 8192", 2684354560),
        ("2.5 GiB", 2.5 * 2**30),
    ],
)
def test_kv_cache_graded_from_every_form(kv_cache, text, parsed):
    result = grade(kv_cache, KV, text)
    assert result.truth == 2 * 80 * 8 * 128 * 8192 * 2 == 2684354560
    assert result.error is None and result.parsed == pytest.approx(parsed, rel=1e-12) and result.correct


@pytest.mark.parametrize("text", ["2*7/8*14 GB / (50 GB/s)", "2*7/8*14GB / 50GB/s", "~0.49 s", "490 ms"])
def test_allreduce_time_graded_from_arithmetic_with_units(allreduce, text):
    result = grade(allreduce, ALLREDUCE, text)
    assert result.truth == pytest.approx(2 * 7 / 8 * 14e9 / 50e9) == pytest.approx(0.49)
    assert result.error is None and result.parsed == pytest.approx(0.49, rel=1e-12) and result.correct


def test_a_bandwidth_where_a_time_is_asked_is_not_graded(allreduce):
    result = grade(allreduce, ALLREDUCE, "14 GB * 50 GB/s")
    assert result.error is not None and "the question asks for a time" in result.error and result.parsed is None
