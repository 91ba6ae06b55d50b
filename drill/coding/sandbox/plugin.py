"""The reporter: a pytest plugin object in the test process that writes the signed report.

The child (child.py) builds one Reporter per run with the run's key and passes it to
pytest.main. Everything it reports is what it observed itself, not what pytest's reports say:
- `collected`: the test ids, written when collection ends - before any candidate code runs (the
  candidate is imported by a fixture, inside a test);
- then it seals the run (the sandbox hides the hidden folder, the guard starts refusing the
  candidate's reads of hidden files) and takes a snapshot of the assertion helpers;
- a test counts as passed only when its own test function ran to its end (the reporter wraps
  each one), no phase raised, and the assertion helpers are still the ones the tests imported.
pytest's reports only add the words: the failure message, a one-line summary, captured output.
The runner (drill.coding.runner.result) then compares the collected ids with the results.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Generator
from pathlib import Path
from types import ModuleType
from typing import IO, Any

import pytest

from drill.coding.signed import Outcome, ReportEvent

MESSAGE_LIMIT = 2000
OUTPUT_LIMIT = 2000
NOT_FINISHED = "the test did not run to its end: the code under test changed how the tests run"
SKIPPED_BY_CANDIDATE = "the code under test skipped the test: only the tests may skip themselves"


def truncate(text: str, limit: int, keep: str = "head") -> str:
    """At most about `limit` characters, saying how many were cut."""
    if len(text) <= limit:
        return text
    cut = len(text) - limit
    if keep == "head":
        return text[:limit] + f"\n... ({cut} more characters)"
    return f"... ({cut} earlier characters)\n" + text[-limit:]


def _test_name(nodeid: str) -> str:
    return nodeid.split("::", 1)[-1]


def _summary(excinfo: pytest.ExceptionInfo[BaseException]) -> str:
    value = excinfo.value
    if isinstance(value, SyntaxError):
        return f"{excinfo.typename}: {value.msg} ({Path(value.filename or '?').name}, line {value.lineno})"
    first = next((line for line in str(value).splitlines() if line.strip()), "")
    return f"{excinfo.typename}: {first}" if first else excinfo.typename


def describe(excinfo: pytest.ExceptionInfo[BaseException], candidate: str) -> tuple[str, str]:
    """(message, one-line summary) for an exception, pointing at the candidate's line if any."""
    text = excinfo.exconly()
    try:
        entries = [entry for entry in excinfo.traceback if str(entry.path) == candidate]
    except Exception:  # noqa: BLE001 - a broken traceback must not break the report
        entries = []
    if entries:
        entry = entries[-1]
        text += f"\n  at {Path(candidate).name}:{entry.lineno + 1} in {entry.name}"
    return truncate(text, MESSAGE_LIMIT), truncate(_summary(excinfo), 300)


class Reporter:
    """One run's observer; `sign` turns an event into its signed line (drill.coding.signed)."""

    def __init__(
        self, report: IO[str], sign: Callable[[ReportEvent], str], candidate: str, device: str, seal: Callable[[], None]
    ) -> None:
        self._write: Callable[[ReportEvent], object] = lambda event: (report.write(sign(event)), report.flush())
        self._candidate, self._device, self._seal = candidate, device, seal
        self._finished: set[str] = set()
        self._raised: dict[str, tuple[str, BaseException]] = {}
        self._results: dict[str, dict[str, str]] = {}
        self._helpers: list[tuple[object, str, object]] = []
        self._tampered = ""

    # collection: candidate-free
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        """Deselect the cases parametrized for the other device, instead of reporting them skipped."""
        keep: list[pytest.Item] = []
        drop: list[pytest.Item] = []
        for item in items:
            params = getattr(getattr(item, "callspec", None), "params", {})
            (drop if params.get("device", self._device) != self._device else keep).append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self._write(
                {
                    "event": "collect_error",
                    "name": report.nodeid,
                    "message": truncate(str(report.longrepr), MESSAGE_LIMIT, keep="tail"),
                }
            )

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        for item in session.items:
            if isinstance(item, pytest.Function):
                item.obj = self._observed(item.obj, item.nodeid)
        self._write({"event": "collected", "names": [_test_name(item.nodeid) for item in session.items]})
        self._seal()
        self._helpers = assertion_helpers()

    def _observed(self, function: Callable[..., object], nodeid: str) -> Callable[..., object]:
        finished = self._finished

        @functools.wraps(function)
        def run(*args: Any, **kwargs: Any) -> object:
            result = function(*args, **kwargs)
            finished.add(nodeid)
            return result

        return run

    # each test: what happened, seen from outside pytest's reports
    def pytest_runtest_logstart(self, nodeid: str, location: tuple[str, int | None, str]) -> None:
        self._write({"event": "start", "name": _test_name(nodeid)})

    def _phase(self, item: pytest.Item, when: str) -> Generator[None, object, object]:
        try:
            return (yield)
        except BaseException as error:
            self._raised.setdefault(item.nodeid, (when, error))
            raise

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, object, object]:
        return (yield from self._phase(item, "setup"))

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, object, object]:
        try:
            return (yield from self._phase(item, "call"))
        finally:
            if changed := replaced_helpers(self._helpers):
                self._tampered = self._tampered or f"the code under test replaced {changed}"

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Generator[None, object, object]:
        return (yield from self._phase(item, "teardown"))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if call.excinfo is not None and not report.skipped:
            words = describe(call.excinfo, self._candidate)
            # a report keeps extra attributes (pytest's BaseReport takes **extra), which its stubs cannot name
            report.drill_message, report.drill_summary = words  # type: ignore[attr-defined]
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        entry = self._results.setdefault(report.nodeid, {"message": "", "summary": "", "output": "", "skip": ""})
        if report.skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
            entry["skip"] = reason.removeprefix("Skipped: ")
        elif report.failed and not entry["message"]:
            message = getattr(report, "drill_message", "") or truncate(report.longreprtext, MESSAGE_LIMIT)
            entry["message"] = ("error in teardown: " if report.when == "teardown" else "") + message
            entry["summary"] = getattr(report, "drill_summary", "")
        captured = report.capstdout + report.capstderr  # each phase's report repeats the earlier phases'
        if captured:
            entry["output"] = truncate(captured, OUTPUT_LIMIT, keep="tail")

    def pytest_runtest_logfinish(self, nodeid: str, location: tuple[str, int | None, str]) -> None:
        words = self._results.pop(nodeid, {"message": "", "summary": "", "output": "", "skip": ""})
        outcome, message = self._outcome(nodeid, words)
        self._write(
            {
                "event": "result",
                "name": _test_name(nodeid),
                "outcome": outcome,
                "message": message,
                "summary": words["summary"] if outcome != "passed" else "",
                "output": words["output"],
            }
        )

    def _outcome(self, nodeid: str, words: dict[str, str]) -> tuple[Outcome, str]:
        raised = self._raised.pop(nodeid, None)
        if raised is not None and isinstance(raised[1], pytest.skip.Exception):
            if self._raised_in_candidate(raised[1]):
                return "failed", SKIPPED_BY_CANDIDATE
            return "skipped", words["skip"] or str(raised[1])
        if raised is not None:
            when, error = raised
            message = words["message"] or truncate(f"{type(error).__name__}: {error}", MESSAGE_LIMIT)
            return ("failed" if when == "call" else "error"), message
        if self._tampered:
            return "failed", self._tampered
        if nodeid not in self._finished:
            return "failed", NOT_FINISHED
        return "passed", ""

    def _raised_in_candidate(self, error: BaseException) -> bool:
        """Whether the candidate's file is among the frames `error` passed through."""
        trace = error.__traceback__
        while trace is not None:
            if trace.tb_frame.f_code.co_filename == self._candidate:
                return True
            trace = trace.tb_next
        return False

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        self._write({"event": "end", "exitstatus": int(exitstatus)})


# What the tests judge with (module, attribute path); the code under test must leave them as they were.
HELPERS = (
    ("torch.testing", "assert_close"),
    ("torch", "allclose"),
    ("torch", "equal"),
    ("torch", "isclose"),
    ("torch", "Tensor.allclose"),
    ("torch", "Tensor.equal"),
    ("torch", "Tensor.__eq__"),
    ("math", "isclose"),
    ("builtins", "isinstance"),
    ("builtins", "all"),
    ("builtins", "any"),
    ("builtins", "abs"),
    ("pytest", "raises"),
    ("pytest", "approx"),
)


def assertion_helpers() -> list[tuple[object, str, object]]:
    """(owner, name, the object now) for each assertion helper already imported."""
    found: list[tuple[object, str, object]] = []
    for module, path in HELPERS:
        owner = sys.modules.get(module)
        *parents, name = path.split(".")
        for parent in parents:
            owner = getattr(owner, parent, None)
        if owner is not None and hasattr(owner, name):
            found.append((owner, name, getattr(owner, name)))
    return found


def replaced_helpers(helpers: list[tuple[object, str, object]]) -> str:
    """The first helper that is no longer the object it was ('' when none)."""
    for owner, name, original in helpers:
        if getattr(owner, name, None) is not original:
            return f"{getattr(owner, '__name__', owner)}.{name}"
    return ""


def load_module(path: str | Path, name: str) -> ModuleType:
    """Import the Python file at `path` as a module called `name`."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, f"cannot load {path}"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
