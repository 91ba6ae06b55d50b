"""The test process: contained, limited, and reporting through the signed channel.

run_child(request) is the one way tests run: in a forked child of the warm worker, or as
`python -m drill.coding.sandbox.child` (the cold runner, which writes the request as one JSON
line on stdin). The request is built by the runner's Invocation.request(). It never returns: the
process exits with pytest's exit code. Mode "test" runs the hidden tests; mode "time" (after a pass) times the
candidate against the reference with the test module's benchmark_case.
"""

from __future__ import annotations

import json
import os
import sys
import traceback


def run_child(request: dict) -> None:
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
        report = open(request["report"], "a", encoding="utf-8")
        from drill.coding.signed import signer

        sign = signer(request.pop("key"))
        code = _time(request, report, sign) if request["mode"] == "time" else _test(request, report, sign, containment)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(code)


def _test(request: dict, report, sign, containment) -> int:
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


def _time(request: dict, report, sign) -> int:
    """Time candidate and reference on the test module's benchmark_case; one signed event."""
    from drill.coding.sandbox.plugin import load_module
    from drill.coding.sandbox.timing import compare

    tests = load_module(request["args"][0], "drill_timed_tests")
    if not hasattr(tests, "benchmark_case"):
        return 0
    try:
        candidate = load_module(request["candidate"], "drill_timed_candidate")
        reference = load_module(request["reference"], "drill_timed_reference")
        event = {"event": "timing", **compare(tests.benchmark_case, candidate, reference, request["device"])}
    except Exception as error:  # timing is a bonus: never turn a pass into a failure
        event = {"event": "timing", "error": f"{type(error).__name__}: {error}"}
    report.write(sign(event))
    report.flush()
    return 0


def main() -> None:
    """`python -m drill.coding.sandbox.child`: one request as a JSON line on stdin."""
    request = json.loads(sys.stdin.buffer.readline())
    run_child(request)


if __name__ == "__main__":
    main()
