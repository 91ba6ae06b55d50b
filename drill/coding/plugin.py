"""pytest plugin for the test process: per-test results as JSON lines in $DRILL_REPORT.

Loaded with `-p drill.coding.plugin`. It applies the memory limits at configure time, writes
one line per event (start, result, collect_error, timing, end) and flushes each, so the
supervisor can stream results and still knows which test was running if the process dies.
Environment: DRILL_REPORT, DRILL_DEVICE, DRILL_MEMORY_MB, DRILL_GPU_MEMORY_MB, DRILL_BENCHMARK,
DRILL_CANDIDATE, DRILL_SOLUTION, and DRILL_FIXTURES: the shipped kernels/conftest.py, registered as
a plugin for a user's drill whose kernels folder has no conftest.py of its own.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO

import pytest

MESSAGE_LIMIT = 2000
OUTPUT_LIMIT = 2000

_report: IO[str] | None = None
_results: dict[str, dict] = {}


def truncate(text: str, limit: int, keep: str = "head") -> str:
    """At most about `limit` characters, saying how many were cut."""
    if len(text) <= limit:
        return text
    cut = len(text) - limit
    if keep == "head":
        return text[:limit] + f"\n... ({cut} more characters)"
    return f"... ({cut} earlier characters)\n" + text[-limit:]


def emit(event: dict) -> None:
    if _report is not None:
        _report.write(json.dumps(event) + "\n")
        _report.flush()


def _test_name(nodeid: str) -> str:
    return nodeid.split("::", 1)[-1]


def _summary(excinfo: pytest.ExceptionInfo) -> str:
    value = excinfo.value
    if isinstance(value, SyntaxError):
        return f"{excinfo.typename}: {value.msg} ({Path(value.filename or '?').name}, line {value.lineno})"
    first = next((line for line in str(value).splitlines() if line.strip()), "")
    return f"{excinfo.typename}: {first}" if first else excinfo.typename


def _describe(excinfo: pytest.ExceptionInfo) -> tuple[str, str]:
    """(message, one-line summary) for an exception, pointing at the candidate's line if any."""
    text = excinfo.exconly()
    candidate = os.environ.get("DRILL_CANDIDATE")
    if candidate:
        try:
            entries = [entry for entry in excinfo.traceback if str(entry.path) == candidate]
        except Exception:  # a broken traceback must not break the report
            entries = []
        if entries:
            entry = entries[-1]
            text += f"\n  at {Path(candidate).name}:{entry.lineno + 1} in {entry.name}"
    return truncate(text, MESSAGE_LIMIT), truncate(_summary(excinfo), 300)


def pytest_configure(config: pytest.Config) -> None:
    global _report
    from drill.coding.limits import apply_memory_limit, cap_gpu_memory

    path = os.environ.get("DRILL_REPORT")
    if path:
        _report = open(path, "a", encoding="utf-8")
    fixtures = os.environ.get("DRILL_FIXTURES")
    if fixtures:
        config.pluginmanager.register(load_module(fixtures, "drill_kernel_fixtures"), "drill-kernel-fixtures")
    device = os.environ.get("DRILL_DEVICE", "cpu")
    apply_memory_limit(int(os.environ.get("DRILL_MEMORY_MB") or 0), device)
    if device == "cuda":
        cap_gpu_memory(int(os.environ.get("DRILL_GPU_MEMORY_MB") or 0))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the cases parametrized for the other device, instead of reporting them skipped."""
    device = os.environ.get("DRILL_DEVICE")
    if not device:
        return
    keep, drop = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        (drop if params.get("device", device) != device else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if report.failed:
        message = truncate(str(report.longrepr), MESSAGE_LIMIT, keep="tail")
        emit({"event": "collect_error", "name": report.nodeid, "message": message,
              "summary": getattr(report, "drill_summary", "")})


def pytest_runtest_logstart(nodeid: str, location: tuple) -> None:
    emit({"event": "start", "name": _test_name(nodeid)})


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if call.excinfo is not None and not report.skipped:
        report.drill_message, report.drill_summary = _describe(call.excinfo)
    return report


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    entry = _results.setdefault(report.nodeid, {"event": "result", "name": _test_name(report.nodeid),
                                                "outcome": "passed", "message": "", "summary": "", "output": ""})
    if report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        entry.update(outcome="skipped", message=reason.removeprefix("Skipped: "))
    elif report.failed and entry["outcome"] in ("passed", "skipped"):
        entry["outcome"] = "failed" if report.when == "call" else "error"
        entry["message"] = getattr(report, "drill_message", "") or truncate(report.longreprtext, MESSAGE_LIMIT)
        entry["summary"] = getattr(report, "drill_summary", "")
        if report.when == "teardown":
            entry["message"] = "error in teardown: " + entry["message"]
    captured = report.capstdout + report.capstderr  # each phase's report repeats the earlier phases'
    if captured:
        entry["output"] = truncate(captured, OUTPUT_LIMIT, keep="tail")


def pytest_runtest_logfinish(nodeid: str, location: tuple) -> None:
    if nodeid in _results:
        emit(_results.pop(nodeid))


def load_module(path: str | Path, name: str):
    """Import the Python file at `path` as a module called `name`."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, f"cannot load {path}"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _time(session: pytest.Session) -> None:
    """Time the candidate against the reference with the test module's benchmark_case."""
    modules = {getattr(item, "module", None) for item in session.items}
    case = next((module.benchmark_case for module in modules if hasattr(module, "benchmark_case")), None)
    if case is None:
        return
    try:
        from drill.coding.timing import compare

        candidate = load_module(os.environ["DRILL_CANDIDATE"], "drill_timed_candidate")
        reference = load_module(os.environ["DRILL_SOLUTION"], "drill_timed_reference")
        emit({"event": "timing", **compare(case, candidate, reference, os.environ.get("DRILL_DEVICE", "cpu"))})
    except Exception as error:  # timing is a bonus: never turn a pass into a failure
        emit({"event": "timing", "error": f"{type(error).__name__}: {error}"})


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    wanted = os.environ.get("DRILL_BENCHMARK") == "1" and os.environ.get("DRILL_SOLUTION")
    if wanted and exitstatus == 0 and session.testsfailed == 0 and os.environ.get("DRILL_CANDIDATE"):
        _time(session)
    emit({"event": "end", "exitstatus": int(exitstatus)})
