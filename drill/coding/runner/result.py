"""What a test run produced: per-test results and the overall verdict, built from report events."""

from __future__ import annotations

import signal
from dataclasses import dataclass, field
from typing import Literal

from drill.coding.signed import Outcome, ReportEvent
from drill.words import counted

Status = Literal["pass", "fail", "error", "timeout"]


@dataclass(frozen=True)
class TestResult:
    """One hidden test: its name, outcome, a message saying why it failed, and captured output."""

    __test__ = False  # not a pytest test class

    name: str
    outcome: Outcome
    message: str = ""
    output: str = ""
    summary: str = ""  # one line: "ExceptionType: first line of its message"

    @classmethod
    def from_event(cls, event: ReportEvent) -> TestResult:
        return cls(
            event["name"], event["outcome"], event.get("message", ""), event.get("output", ""), event.get("summary", "")
        )

    def as_json(self) -> dict[str, str]:
        return {"name": self.name, "outcome": self.outcome, "message": self.message}


@dataclass
class TestRun:
    """The verdict of one run. `reason` says in words why, `output` is the tail of the raw output.

    `environment`: the run failed because of this Python, not the candidate's code (the runner
    could not start, pytest or torch is missing in the test process, nothing ran): such a run
    is never stored as the user's attempt, and its reason says how to fix the installation.
    """

    __test__ = False

    status: Status
    passed: int
    failed: int
    tests: list[TestResult] = field(default_factory=list)
    seconds: float = 0.0
    reason: str = ""
    device: str = "cpu"
    speed_ratio: float | None = None
    candidate_s: float | None = None
    reference_s: float | None = None
    output: str = ""
    environment: bool = False

    @property
    def headline(self) -> str:
        """The verdict in one sentence: the reason with a capital letter ("All 9 tests passed",
        "The tests could not run your code: SyntaxError: …"), as the drill screen and
        `drill kernel test` say it."""
        reason = self.reason or self.status
        return reason[:1].upper() + reason[1:]

    def as_json(self) -> dict[str, object]:
        """The `drill kernel test --json` object."""
        return {
            "status": self.status,
            "passed": self.passed,
            "failed": self.failed,
            "tests": [test.as_json() for test in self.tests],
            "seconds": round(self.seconds, 3),
            "reason": self.reason,
            "speed_ratio": self.speed_ratio,
            "environment": self.environment,
        }


@dataclass(frozen=True)
class Exit:
    """How the test process ended, as seen by whoever supervised it."""

    returncode: int | None  # negative: killed by that signal
    timed_out: bool = False
    over_memory: bool = False
    cancelled: bool = False


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def _summary(test: TestResult) -> str:
    return test.summary or _last_line(test.message)


NOT_REPORTED = "the run did not report its tests"


def interpret(
    events: list[ReportEvent],
    exit: Exit,
    *,
    seconds: float,
    timeout_s: float,
    memory_mb: int,
    device: str,
    output: str = "",
    tampered: bool = False,
) -> TestRun:
    """Turn the signed report's events and the process's end into one TestRun with a human reason.

    A pass needs all of: a report no one else wrote into (`tampered` False), the collected test
    ids, a passed (or skipped) result for each of them and none other, the end of the session,
    and pytest's exit code 0. Anything short of that is never a pass.
    """
    tests = [TestResult.from_event(event) for event in events if event.get("event") == "result"]
    passed = sum(test.outcome == "passed" for test in tests)
    failed = sum(test.outcome in ("failed", "error") for test in tests)
    started = [event["name"] for event in events if event.get("event") == "start"]
    finished = {test.name for test in tests}
    running = next((name for name in reversed(started) if name not in finished), None)
    during = f" while running {running}" if running else ""
    collect = [event for event in events if event.get("event") == "collect_error"]
    timing = next((event for event in events if event.get("event") == "timing"), ReportEvent())
    run = TestRun(
        "fail",
        passed,
        failed,
        tests,
        seconds,
        device=device,
        output=output,
        speed_ratio=timing.get("speed_ratio"),
        candidate_s=timing.get("candidate_s"),
        reference_s=timing.get("reference_s"),
    )
    code = exit.returncode
    if exit.timed_out:
        run.status = "timeout"
        run.reason = f"stopped after the {timeout_s:g} s time limit{during}: an infinite loop, or far too slow"
    elif exit.cancelled:
        run.status, run.reason = "error", "cancelled"
    elif exit.over_memory:
        run.status = "error"
        run.reason = f"stopped for using too much memory (the tests may use {memory_mb} MiB){during}"
    elif code is not None and code < 0:
        name = _signal_name(-code)
        hint = {
            "SIGABRT": " (os.abort() or a native assertion)",
            "SIGSEGV": " (a segmentation fault)",
            "SIGKILL": " (killed: out of memory?)",
        }.get(name, "")
        run.status, run.reason = "error", f"the test process crashed with {name}{hint}{during}"
    elif collect:
        run.status = "error"
        run.reason = "the tests could not be collected: " + (
            collect[0].get("summary") or _last_line(collect[0].get("message", ""))
        )
    elif tampered:
        run.status, run.reason = "fail", f"{NOT_REPORTED}: its report holds lines the test runner did not write"
    elif not any(event.get("event") == "end" for event in events):
        last = _last_line(output)
        run.status = "error"
        run.reason = (
            f"{NOT_REPORTED}: the test process exited early with code {code}{during} "
            "(sys.exit() or os._exit()?)" + (f": {last}" if last else "")
        )
    elif code not in (0, 1):
        run.status = "error"
        run.reason = f"pytest stopped with exit code {code}: " + (_last_line(output) or "no output")
    elif failed == 0 and (unreported := _unreported(events, tests) or (code != 0 and f"pytest ended with code {code}")):
        run.status, run.reason = "fail", f"{NOT_REPORTED}: {unreported}"
    elif passed + failed == 0:
        skipped = next((test.message for test in tests if test.outcome == "skipped"), "")
        run.status, run.reason = "error", "no test ran" + (f" (skipped: {skipped})" if skipped else "")
        run.environment = True  # the candidate is loaded inside each test: it cannot stop them all running
    elif failed == 0:
        run.status, run.reason = "pass", "the test passed" if passed == 1 else f"all {passed} tests passed"
    elif passed == 0 and all(test.outcome in ("error", "skipped") for test in tests):
        first = next(test for test in tests if test.outcome == "error")
        run.status, run.reason = "error", "the tests could not run your code: " + _summary(first)
    else:
        first = next(test for test in tests if test.outcome in ("failed", "error"))
        run.reason = f"{failed} of {counted(passed + failed, 'test')} failed; first: {first.name}: {_summary(first)}"
    if run.status != "pass" and any("allocate" in test.message or "MemoryError" in test.message for test in tests):
        run.reason += f" (the tests may allocate {memory_mb} MiB)"
    if run.status == "error" and not tests and not started and not exit.cancelled:
        _environment_check(run, output, collect)
    return run


def _unreported(events: list[ReportEvent], tests: list[TestResult]) -> str:
    """What is wrong between the collected ids and the results ('' when they match one to one)."""
    collected = next((event.get("names") for event in events if event.get("event") == "collected"), None)
    if not isinstance(collected, list):
        return "no list of collected tests"
    names = [test.name for test in tests]
    if len(set(names)) != len(names):
        return "a test reported twice"
    missing = [name for name in collected if name not in set(names)]
    if missing:
        return f"{len(missing)} of {len(collected)} collected tests never reported (first: {missing[0]})"
    if extra := [name for name in names if name not in set(collected)]:
        return f"a result for a test that was never collected ({extra[0]})"
    return ""


def _environment_check(run: TestRun, output: str, collect: list[ReportEvent]) -> None:
    """A run that stopped before any test because pytest, torch, … is missing in the test
    process is this Python's failure, not the candidate's: flag it and say how to fix it."""
    from drill.coding.runner.environment import describe, missing_modules_in

    said = "\n".join([output, *(event.get("message", "") + "\n" + event.get("summary", "") for event in collect)])
    if lacking := missing_modules_in(said):
        run.environment = True
        run.reason = f"the test process could not import {', '.join(lacking)}. {describe(lacking)}"


def error_run(reason: str, device: str = "cpu", seconds: float = 0.0, environment: bool = False) -> TestRun:
    """A run that never started (missing file, runner failure; `environment`: this Python's fault)."""
    return TestRun("error", 0, 0, [], seconds, reason=reason, device=device, environment=environment)
