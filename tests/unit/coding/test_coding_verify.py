"""Verify's verdicts: a drill whose tests skip themselves is reported as skipped, not passed."""

from pathlib import Path

from drill.coding.drills import load_drills
from drill.coding.runner.result import TestResult, TestRun
from drill.coding.verify import Verdict

KERNELS = Path(__file__).resolve().parents[3] / "kernels"


def verdict(reference: TestRun, starter: TestRun) -> Verdict:
    return Verdict(load_drills(KERNELS)[0], "cpu", reference, starter)


def test_whole_module_skipped_is_a_skip() -> None:
    skipped = TestRun("error", 0, 0, reason="pytest stopped with exit code 5: 1 skipped in 0.06s")
    result = verdict(skipped, skipped)
    assert result.skipped and result.ok and result.line().startswith("skip ")


def test_a_starter_that_passes_fails_verify() -> None:
    passing = TestRun("pass", 3, 0, tests=[TestResult("t", "passed")], reason="all 3 tests passed")
    result = verdict(passing, passing)
    assert not result.skipped and not result.ok and result.line().startswith("FAIL")


def test_reference_pass_and_starter_fail_is_ok() -> None:
    passing = TestRun("pass", 3, 0, tests=[TestResult("t", "passed")])
    failing = TestRun("fail", 0, 1, tests=[TestResult("t", "failed", "NotImplementedError")])
    result = verdict(passing, failing)
    assert result.ok and not result.skipped and result.line().startswith("ok ")
