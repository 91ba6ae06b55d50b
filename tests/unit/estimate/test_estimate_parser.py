"""The safe answer parser: every answer form in the issue, units, limits and errors."""

from __future__ import annotations

import math

import pytest

from drill.estimate import units
from drill.estimate.parser import AnswerError, parse_answer, parse_value
from drill.estimate.units import BANDWIDTH, BYTE, FLOP, FLOP_RATE, INTENSITY, NONE, PER_SECOND, SECOND


def base(text: str, want=None) -> tuple[float, object]:
    return parse_answer(text).in_base_units(want)


@pytest.mark.parametrize(
    "text, want, value, dim",
    [
        # the examples in the issue
        ("2.7 GB", BYTE, 2.7e9, BYTE),
        ("2.5GiB", BYTE, 2.5 * 2**30, BYTE),
        ("2*80*8*128*8192*2 bytes", BYTE, 2 * 80 * 8 * 128 * 8192 * 2, BYTE),
        ("1.2e9", BYTE, 1.2e9, None),
        ("61 days", SECOND, 61 * 86400, SECOND),
        ("0.49 s", SECOND, 0.49, SECOND),
        ("3.2 TFLOP", FLOP, 3.2e12, FLOP),
        ("300 GB/s", BANDWIDTH, 300e9, BANDWIDTH),
        ("18%", NONE, 0.18, NONE),
        # more forms
        ("18 %", NONE, 0.18, NONE),
        ("2^30 B", BYTE, 2**30, BYTE),
        ("2**30", None, 2**30, None),
        ("(4+4)*1e9 B", BYTE, 8e9, BYTE),
        ("1,000,000 tokens", NONE, 1e6, NONE),
        ("1.5 TB", BYTE, 1.5e12, BYTE),
        ("512 KiB", BYTE, 512 * 1024, BYTE),
        ("4 Gb", BYTE, 0.5e9, BYTE),
        ("100 Gbps", BANDWIDTH, 12.5e9, BANDWIDTH),
        ("400 Gb/s", BANDWIDTH, 50e9, BANDWIDTH),
        ("989 TFLOPS", FLOP_RATE, 989e12, FLOP_RATE),
        ("989 TFLOP/s", FLOP_RATE, 989e12, FLOP_RATE),
        ("4.2e22 FLOP", FLOP, 4.2e22, FLOP),
        ("4.2e22 FLOPs", FLOP, 4.2e22, FLOP),
        ("156 FLOP/byte", INTENSITY, 156, INTENSITY),
        ("156 FLOP/B", INTENSITY, 156, INTENSITY),
        ("156 ops/B", INTENSITY, 156, INTENSITY),
        ("250 tokens/s", PER_SECOND, 250, PER_SECOND),
        ("250 tok/s", PER_SECOND, 250, PER_SECOND),
        ("520 µs", SECOND, 520e-6, SECOND),
        ("520 μs", SECOND, 520e-6, SECOND),
        ("520 us", SECOND, 520e-6, SECOND),
        ("30 ns", SECOND, 30e-9, SECOND),
        ("30 ms", SECOND, 0.03, SECOND),
        ("90 min", SECOND, 5400, SECOND),
        ("1.5 h", SECOND, 5400, SECOND),
        ("2 hours", SECOND, 7200, SECOND),
        ("1 day", SECOND, 86400, SECOND),
        ("2.77x", NONE, 2.77, NONE),
        ("2.77×", NONE, 2.77, NONE),
        ("2 × 3", None, 6, None),
        ("2·3 GB", BYTE, 6e9, BYTE),
        ("4.2M params", NONE, 4.2e6, NONE),
        ("7B params", NONE, 7e9, NONE),
        ("9 GPUs", NONE, 9, NONE),
        ("-(-3)", None, 3, None),
        ("2**-1", None, 0.5, None),
        ("-2**2", None, -4, None),
        ("10 GB per s", BANDWIDTH, 10e9, BANDWIDTH),
        ("  7 GB  ", BYTE, 7e9, BYTE),
        (".5 GB", BYTE, 0.5e9, BYTE),
        ("5. GB", BYTE, 5e9, BYTE),
    ],
)
def test_answer_forms(text, want, value, dim):
    got, got_dim = base(text, want)
    assert got == pytest.approx(value, rel=1e-12)
    assert got_dim == dim


def test_per_unit_after_slash():
    assert base("250/s", PER_SECOND) == (250.0, PER_SECOND)
    assert base("1e3/ms", PER_SECOND) == (1e6, PER_SECOND)


def test_bare_multipliers_take_the_questions_unit():
    assert base("2.4K", PER_SECOND) == (2400.0, None)
    assert base("1.2 billion", BYTE) == (1.2e9, None)
    assert base("4.2M", NONE) == (4.2e6, NONE)
    assert base("7B", BYTE) == (7.0, BYTE)  # B is a byte where bytes are asked


def test_ambiguous_b_resolves_by_the_question():
    assert base("7 B", BYTE) == (7.0, BYTE)
    assert base("7 B", NONE) == (7e9, NONE)


def test_lowercase_flops_resolves_by_the_question():
    assert base("3 tflops", FLOP_RATE) == (3e12, FLOP_RATE)
    assert base("3 tflops", FLOP) == (3e12, FLOP)


def test_case_folding_only_where_unambiguous():
    assert base("3 tflop", FLOP)[0] == 3e12
    with pytest.raises(AnswerError, match="ambiguous"):
        parse_answer("3 gb")


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("GB", "expected a number"),
        ("2 3", "operator"),
        ("2 +", "incomplete"),
        ("(2", "parentheses"),
        ("2)", "parentheses"),
        ("1/0", "division by zero"),
        ("0**-1", "division by zero"),
        ("(-8)**0.5", "negative"),
        ("2 GB + 3 s", "cannot add a time to a size in bytes"),
        ("(2 GB)^2", "only a plain number can be raised to a power"),
        ("2 furlongs", "unknown unit"),
        ("5 m", "min for minutes"),
        ("2 GB/", "nothing after"),
        ("1e999", "too large"),
        ("10**400", "exponent too large"),
        ("1e300*1e300", "too large"),
        ("1,00", "commas"),
        ("2e", "unknown unit"),
    ],
)
def test_errors_are_clean(text, message):
    with pytest.raises(AnswerError, match=message):
        parse_answer(text)


def test_not_text():
    with pytest.raises(AnswerError):
        parse_answer(None)  # type: ignore[arg-type]
    with pytest.raises(AnswerError):
        parse_answer(b"2 GB")  # type: ignore[arg-type]


def test_parse_value_checks_dimension():
    assert parse_value("50GB/s", BANDWIDTH) == 50e9
    assert parse_value("8192", None) == 8192
    with pytest.raises(AnswerError, match="that is a time; the question asks for a bandwidth"):
        parse_value("50 s", BANDWIDTH)


def test_a_unit_given_to_the_last_bracket_alone_is_answered_with_how_to_bracket_it():
    """`16/(2+2) FLOP/byte` is 16 over (2+2) FLOP/byte (a unit belongs to what is just before it),
    so it is byte/FLOP: the message says how to give the whole expression the unit."""
    upside_down = parse_answer("16/(2+2) FLOP/byte").readings[0].dim
    assert upside_down == (1, 0, -1)
    assert parse_answer("(16/(2+2)) FLOP/byte").readings[0].dim == (-1, 0, 1)
    said = units.mismatch_message(upside_down, (-1, 0, 1))
    assert said.endswith("(a unit belongs to the number or bracket just before it: write (…) FLOP/byte)")
    assert "bracket" not in units.mismatch_message(SECOND, BYTE)  # not merely upside down


def test_unit_table_basics():
    assert units.lookup("GiB") == (units.Quantity(2.0**30, BYTE),)
    assert units.lookup("Mb")[0].factor == 1e6 / 8
    assert units.lookup("KB")[0].factor == 1e3
    assert units.lookup("days")[0] == units.Quantity(86400.0, SECOND)
    assert units.parse_unit("GB/s")[0] == units.Quantity(1e9, BANDWIDTH)
    assert units.parse_unit("1/s")[0] == units.Quantity(1.0, PER_SECOND)
    assert units.describe_dim(SECOND) == "a time"
    assert units.mismatch_message(SECOND, BYTE) == "that is a time; the question asks for bytes"
    assert set(units.FAMILY_UNITS) >= {"byte", "s", "FLOP", "FLOP/s", "byte/s", "FLOP/byte", "1"}
    for name, readings in units.TABLE.items():
        assert readings, name
        for q in readings:
            assert q.factor > 0 and math.isfinite(q.factor)
