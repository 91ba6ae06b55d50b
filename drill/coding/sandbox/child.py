"""The test process: contained, limited, and reporting through the signed channel.

run_child(request) is the one way tests run: in a forked child of the warm worker, or as
`python -m drill.coding.sandbox.child` (the cold runner, which writes the request as one JSON
line on stdin). The request is built by the runner's Invocation.request(). It never returns: the
process exits with pytest's exit code. Mode "test" runs the hidden tests; mode "time" (after a pass) times the
candidate against the reference with the test module's benchmark_case.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import traceback
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Literal, NotRequired, TypedDict

if TYPE_CHECKING:
    from drill.coding.sandbox.contain import Containment
    from drill.coding.signed import ReportEvent

Mode = Literal["test", "time"]


class RunRequest(TypedDict):
    """One run, as the runner's Invocation.request() sends it (a JSON line: on stdin, or to the worker)."""

    op: Literal["run"]
    mode: Mode
    args: list[str]  # pytest's command line
    env: dict[str, str]  # the test process's whole environment
    cwd: str
    output: str
    report: str
    key: NotRequired[str]  # always sent; run_child takes it out before any candidate code runs
    hidden: str
    reference: str
    candidate: str
    hide: list[str]
    timeout_s: float
    rss_limit: int | None
    memory_mb: int
    gpu_memory_mb: int
    device: str
    namespaces: bool


def run_child(request: RunRequest) -> None:
    """Contain this process, then run the request in it; exits with the run's code."""
    code = 3
    try:
        out = os.open(request["output"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(out, 1)
        os.dup2(out, 2)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        from drill.coding.sandbox.contain import contain

        containment = contain(request["hide"], request["namespaces"])
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        sys.dont_write_bytecode = True
        from drill.coding.sandbox.limits import apply_memory_limit, cap_gpu_memory

        apply_memory_limit(request["memory_mb"], request["device"])
        if request["device"] == "cuda":
            cap_gpu_memory(request["gpu_memory_mb"])
        with open(request["report"], "a", encoding="utf-8") as report:
            from drill.coding.signed import signer

            sign = signer(request.pop("key"))
            if request["mode"] == "time":
                code = _time(request, report, sign)
            else:
                code = _test(request, report, sign, containment)
    except BaseException:  # noqa: BLE001 - whatever fails is printed to the run's output, and the process exits
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a broken stream must not stop the exit
                stream.flush()
        os._exit(code)


def _test(request: RunRequest, report: IO[str], sign: Callable[[ReportEvent], str], containment: Containment) -> int:
    import pytest

    from drill.coding.sandbox import guard
    from drill.coding.sandbox.contain import seal
    from drill.coding.sandbox.plugin import Reporter

    hidden, candidate = request["hidden"], request["candidate"]

    def sealed() -> None:
        guard.forget_modules(hidden)
        seal(containment, hidden)
        guard.install(candidate, [hidden, *request["hide"]], block_programs=not containment.namespaces)

    reporter = Reporter(report, sign, candidate, request["device"], sealed)
    return int(pytest.main(request["args"], plugins=[reporter]))


def _time(request: RunRequest, report: IO[str], sign: Callable[[ReportEvent], str]) -> int:
    """Time candidate and reference on the test module's benchmark_case; one signed event."""
    from drill.coding.sandbox.plugin import load_module
    from drill.coding.sandbox.timing import compare

    tests = load_module(request["args"][0], "drill_timed_tests")
    if not hasattr(tests, "benchmark_case"):
        return 0
    try:
        candidate = load_module(request["candidate"], "drill_timed_candidate")
        reference = load_module(request["reference"], "drill_timed_reference")
        timing = compare(tests.benchmark_case, candidate, reference, request["device"])
        event: ReportEvent = {"event": "timing", **timing}
    except Exception as error:  # noqa: BLE001 - timing is a bonus: never turn a pass into a failure
        event = {"event": "timing", "error": f"{type(error).__name__}: {error}"}
    report.write(sign(event))
    report.flush()
    return 0


def main() -> None:
    """`python -m drill.coding.sandbox.child`: one request as a JSON line on stdin."""
    request: RunRequest = json.loads(sys.stdin.buffer.readline())
    run_child(request)


if __name__ == "__main__":
    main()
