"""From the plugin's events and the process's end to one verdict with a human reason."""

from __future__ import annotations

import signal

import pytest

from drill.coding.runner.result import Exit, TestRun, interpret
from drill.coding.sandbox.plugin import truncate

END = {"event": "end", "exitstatus": 0}
PASSED_EXIT = Exit(0)
SYNTAX = "SyntaxError: '(' was never closed (solution.py, line 2)"


def result(name: str, outcome: str, message: str = "", summary: str = "") -> dict:
    return {"event": "result", "name": name, "outcome": outcome, "message": message, "summary": summary}


def judge(events: list[dict], exit: Exit = PASSED_EXIT, output: str = "", tampered: bool = False):
    """The verdict on `events`, after the `collected` event the reporter writes first (naming the results)."""
    collected = {"event": "collected", "names": [event["name"] for event in events if event.get("event") == "result"]}
    return interpret(
        [collected, *events],
        exit,
        seconds=1.5,
        timeout_s=10,
        memory_mb=4096,
        device="cpu",
        output=output,
        tampered=tampered,
    )


def test_all_passed() -> None:
    run = judge([result("test_a", "passed"), result("test_b", "passed"), result("test_c", "skipped"), END])
    assert (run.status, run.passed, run.failed, run.reason) == ("pass", 2, 0, "all 2 tests passed")
    assert run.as_json() == {
        "status": "pass",
        "passed": 2,
        "failed": 0,
        "seconds": 1.5,
        "reason": "all 2 tests passed",
        "speed_ratio": None,
        "environment": False,
        "tests": [
            {"name": "test_a", "outcome": "passed", "message": ""},
            {"name": "test_b", "outcome": "passed", "message": ""},
            {"name": "test_c", "outcome": "skipped", "message": ""},
        ],
    }


def test_some_failed_names_the_first() -> None:
    events = [
        result("test_a", "passed"),
        result("test_b", "failed", "AssertionError: b is wrong\nassert 1 == 2", "AssertionError: b is wrong"),
        END,
    ]
    run = judge(events, Exit(1))
    assert (run.status, run.passed, run.failed) == ("fail", 1, 1)
    assert run.reason == "1 of 2 tests failed; first: test_b: AssertionError: b is wrong"


def test_every_test_erroring_in_setup_is_an_error() -> None:
    events = [result(f"test_{n}", "error", "...", "SyntaxError: invalid syntax (solution.py, line 3)") for n in "ab"]
    run = judge([*events, END], Exit(1))
    assert (run.status, run.failed) == ("error", 2)
    assert run.reason == "the tests could not run your code: SyntaxError: invalid syntax (solution.py, line 3)"


def test_timeout_names_the_running_test() -> None:
    run = judge(
        [{"event": "start", "name": "test_a"}, result("test_a", "passed"), {"event": "start", "name": "test_b"}],
        Exit(-9, timed_out=True),
    )
    assert run.status == "timeout" and run.passed == 1
    assert run.reason.startswith("stopped after the 10 s time limit while running test_b")


@pytest.mark.parametrize(
    ("number", "words"),
    [(signal.SIGABRT, "SIGABRT (os.abort()"), (signal.SIGSEGV, "SIGSEGV"), (signal.SIGKILL, "out of memory?")],
)
def test_a_signal_is_a_crash(number: int, words: str) -> None:
    run = judge([{"event": "start", "name": "test_a"}], Exit(-number))
    assert run.status == "error" and words in run.reason and run.reason.endswith("while running test_a")


def test_memory_watchdog_cancel_and_early_exit() -> None:
    assert "too much memory (the tests may use 4096 MiB)" in judge([], Exit(-9, over_memory=True)).reason
    assert judge([], Exit(-9, cancelled=True)).reason == "cancelled"
    early = judge([{"event": "start", "name": "test_a"}], Exit(7), output="bye\n")
    assert early.status == "error"
    assert early.reason.startswith("the run did not report its tests: the test process exited early with code 7")


def test_collection_errors_and_empty_runs() -> None:
    collect = {"event": "collect_error", "name": "t.py", "message": "Traceback...\nImportError: no module x"}
    assert judge([collect, END], Exit(2)).reason == "the tests could not be collected: ImportError: no module x"
    skipped = judge([result("test_a", "skipped", "CUDA is not available"), END])
    assert skipped.status == "error" and skipped.reason == "no test ran (skipped: CUDA is not available)"
    assert judge([{"event": "end", "exitstatus": 4}], Exit(4), output="ERROR: file not found").status == "error"


def test_memory_errors_mention_the_limit() -> None:
    run = judge([result("test_a", "failed", "MemoryError", "MemoryError"), END], Exit(1))
    assert run.reason.endswith("(the tests may allocate 4096 MiB)")


def test_timing_is_carried() -> None:
    timing = {"event": "timing", "reference_s": 2.0, "candidate_s": 1.0, "speed_ratio": 2.0}
    run = judge([result("test_a", "passed"), timing, END])
    assert (run.speed_ratio, run.candidate_s, run.reference_s) == (2.0, 1.0, 2.0)


def test_a_pass_needs_every_collected_test_reported_passed() -> None:
    """What the reporter collected and what it reported must match one to one, with exit code 0."""
    passed = [result("test_a", "passed"), result("test_b", "passed")]
    collected = {"event": "collected", "names": ["test_a", "test_b", "test_c"]}
    short = interpret([collected, *passed, END], Exit(0), seconds=1, timeout_s=10, memory_mb=1, device="cpu")
    assert short.status == "fail" and short.reason == (
        "the run did not report its tests: 1 of 3 collected tests never reported (first: test_c)"
    )
    unlisted = interpret([*passed, END], Exit(0), seconds=1, timeout_s=10, memory_mb=1, device="cpu")
    assert unlisted.status == "fail" and unlisted.reason.endswith("no list of collected tests")
    twice = judge([result("test_a", "passed"), result("test_a", "passed"), END])
    assert twice.status == "fail" and twice.reason.endswith("a test reported twice")
    assert judge([*passed, END], Exit(1)).status == "fail"
    assert judge([*passed, END], tampered=True).reason.endswith("holds lines the test runner did not write")
    assert judge([*passed, END]).status == "pass"


def test_truncate_keeps_head_or_tail() -> None:
    assert truncate("abc", 5) == "abc"
    assert truncate("x" * 10 + "END", 10).startswith("x" * 10) and "3 more characters" in truncate("x" * 10 + "END", 10)
    assert truncate("START" + "y" * 10, 10, keep="tail").endswith("y" * 10)


def test_a_pass_is_said_once() -> None:
    assert TestRun("pass", 32, 0, reason="all 32 tests passed").headline == "All 32 tests passed"


def test_an_error_is_not_said_twice() -> None:
    run = TestRun("error", 0, 3, reason=f"the tests could not run your code: {SYNTAX}")
    assert run.headline == f"The tests could not run your code: {SYNTAX}"
