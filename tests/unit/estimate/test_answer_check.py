"""The check before grading: a typo, a missing or wrong unit or an empty box gets a message, never a grade."""

from __future__ import annotations

import ast
import builtins
import contextlib
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drill.estimate.answer_check import EXAMPLE_UNITS, check_answer
from drill.estimate.draw import generate
from drill.estimate.schema import families
from drill.estimate.score import grade
from drill.estimate.units import FAMILY_UNITS, NONE

PROBLEMS = Path(__file__).resolve().parents[3] / "problems"
CANARY = Path("/tmp/drill-answer-check-canary")
KV = {"model": "llama-3-70b", "seq_len": 8192, "batch": 1, "bytes_per_elem": 2}  # 2.68 GB
BUBBLE = {"stages": 4, "microbatches": 8}  # 27.3 %


@pytest.fixture(scope="module")
def fams():
    return {f.id: f for f in families(PROBLEMS)}


@pytest.fixture(scope="module")
def kv(fams):
    return generate(fams["kv-cache"], random.Random(1))


@pytest.fixture(scope="module")
def bubble(fams):
    return generate(fams["pipeline-bubble"], random.Random(1))


def _forbidden(*_a, **_k):
    raise RuntimeError("the check must not compile or evaluate code")


@contextlib.contextmanager
def no_code_execution():
    """Every door to running code raises while the check runs (sympy's too)."""
    import sympy

    saved = builtins.eval, builtins.exec, builtins.compile, ast.parse, sympy.sympify, builtins.__import__
    real_import = builtins.__import__

    def guarded_import(name, *args, **kwargs):
        if name in ("os", "subprocess"):
            _forbidden()
        return real_import(name, *args, **kwargs)

    builtins.eval = builtins.exec = builtins.compile = ast.parse = sympy.sympify = _forbidden  # type: ignore[assignment]
    builtins.__import__ = guarded_import
    try:
        yield
    finally:
        builtins.eval, builtins.exec, builtins.compile, ast.parse, sympy.sympify, builtins.__import__ = saved


@pytest.mark.parametrize(
    "text, message",
    [
        ("1+", "the expression is incomplete"),
        ("", "type an answer"),
        ("   ", "type an answer"),
        ("GB", "expected a number before the unit 'GB'"),
        ("2.7 GB/s", "that is a bandwidth (bytes/s); the question asks for bytes"),
        ("0.49 s", "that is a time; the question asks for bytes"),
        ("2.7", "add a unit: the question asks for bytes (e.g. 2.7 GB)"),
        ("2684354560", "add a unit: the question asks for bytes (e.g. 2684354560 GB)"),
        ("-2.7 GB", "the answer must be a positive number"),
        ("0 GB", "the answer must be a positive number"),
        ("2.7 GX", "unknown unit 'GX'"),
        ("(2.7 GB", "unbalanced parentheses"),
    ],
)
def test_rejected_with_the_parsers_message(kv, text, message):
    assert check_answer(kv, text) == message


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('touch /tmp/drill-answer-check-canary')",
        "eval('1')",
        "open('/etc/passwd')",
        "().__class__.__bases__[0]",
        "lambda: 1",
        "9**9**9**9 GB",
        "1" * 100_000,
        "1e9 B; import os",
    ],
)
def test_hostile_text_gets_a_message_and_runs_nothing(kv, text):
    with no_code_execution():
        message = check_answer(kv, text)
    assert isinstance(message, str) and message
    assert not CANARY.exists()


@pytest.mark.parametrize("text", ["2.7 GB", "2.5GiB", "2.68e9 B", "2*80*8*128*8192*2 bytes", "2684 MB", "1 kB"])
def test_gradable_bytes_pass(kv, text):
    assert check_answer(kv, text) is None


@pytest.mark.parametrize("text", ["18%", "27.3 %", "0.273", "3/11", "1e9"])
def test_a_plain_number_is_fine_where_the_truth_is_dimensionless(bubble, text):
    assert check_answer(bubble, text) is None


def test_a_unit_where_the_truth_is_dimensionless_must_still_fit(bubble):
    assert check_answer(bubble, "18 GB") == (
        "that is a size in bytes; the question asks for a plain number (a ratio, a percentage or a count, "
        "e.g. 0.35, 35% or 12)"
    )


def test_bare_multipliers_take_the_questions_unit():
    """'2.4K' gives the scale, and the grader reads it in the question's unit: no unit is asked for."""
    assert check_answer("token/s", "2.4K") is None
    assert check_answer("token/s", "2400").startswith("add a unit: the question asks for a rate per second")
    assert check_answer("token/s", "2400 tokens/s") is None


@pytest.mark.parametrize("unit", sorted(FAMILY_UNITS))
def test_every_family_unit_gets_a_usable_hint(unit):
    message = check_answer(unit, "3")
    if FAMILY_UNITS[unit] == NONE:
        assert message is None
        return
    assert message.startswith("add a unit: the question asks for ") and "(" not in message.split(" (e.g. ")[0]
    example = message.split("(e.g. ")[1].rstrip(")")
    assert example == f"3 {EXAMPLE_UNITS[FAMILY_UNITS[unit]]}"
    assert check_answer(unit, example) is None  # the hint itself passes


def test_the_grader_still_reads_a_bare_number_in_base_units(fams):
    """`score.grade` reads a bare number in base units; the check before it (in the app and in `drill grade`)
    is what asks for the unit."""
    result = grade(fams["kv-cache"], KV, "2684354560")
    assert result.error is None and result.correct
    result = grade(fams["kv-cache"], KV, "1+")
    assert result.error == "the expression is incomplete" and result.score == 0.0


def test_non_text_is_asked_for(kv):
    assert check_answer(kv, None) == "type an answer"


ANSWER_ALPHABET = "0123456789.eE+-*/()^ %,GgBbiKkMTPsmnuhµμdayx×·_'\"[]{}:;=<>!@#$&|~`\\"


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=ANSWER_ALPHABET, max_size=60), st.sampled_from([("kv-cache", KV), ("pipeline-bubble", BUBBLE)]))
def test_a_checked_answer_always_grades_and_a_rejected_one_never_would(fams, text, which):
    """The check and the grader agree: what passes is graded without an error; the grader errs only
    on what the check refuses (the check also refuses bare numbers where a unit is due)."""
    family_id, params = which
    family = fams[family_id]
    message = check_answer(family.unit, text)
    result = grade(family, params, text)
    if message is None:
        assert result.error is None and result.parsed is not None
    elif result.error is not None:
        assert message == result.error or message == "type an answer"
    else:
        assert message.startswith("add a unit") and FAMILY_UNITS[family.unit] != NONE


def test_the_study_layer_exposes_the_check(drill_home, clock):
    from drill.config import Config
    from drill.paths import Paths
    from drill.study import Study

    paths = Paths(drill_home)
    paths.ensure()
    study = Study(paths, Config.load(paths.config), clock, random.Random(2))
    try:
        problem = study.estimation.new_problem("estimate:kv-cache")
        assert check_answer(problem, "1+") == "the expression is incomplete"
        assert check_answer(problem, "2.7") == "add a unit: the question asks for bytes (e.g. 2.7 GB)"
        assert check_answer(problem, "2.7 GB") is None
    finally:
        study.close()
