"""`drill kernel verify`: every reference and alternate passes, every starter and mutant fails.

On cpu (and cuda). Runs in parallel on a few warm workers. A starter or mutant "fails" when its
tests ran and judged it (status fail, or error with per-test results): a crash, a timeout or a
collection error is a broken drill, not a caught mistake.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache, partial

from drill.coding.drills import Drill, KernelDirs, load_drills
from drill.coding.runner.result import TestRun

VERIFY_TIMEOUT_S = 180.0


@cache
def cuda_available() -> bool:
    """Whether torch sees a GPU, asked in a subprocess so this process never imports torch."""
    code = "import torch; print(torch.cuda.is_available())"
    try:
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.stdout.strip() == "True"


def judged_failure(run: TestRun) -> bool:
    """The tests ran and failed it (not a crash, a timeout or a collection error)."""
    return run.status in ("fail", "error") and any(test.outcome in ("failed", "error") for test in run.tests)


@dataclass(frozen=True)
class Verdict:
    """One drill on one device: the runs of its reference, starter, mutants and alternates."""

    drill: Drill
    device: str
    reference: TestRun
    starter: TestRun
    mutants: dict[str, TestRun] = field(default_factory=dict)
    alternates: dict[str, TestRun] = field(default_factory=dict)

    @property
    def reference_ok(self) -> bool:
        return self.reference.status == "pass"

    @property
    def starter_ok(self) -> bool:
        return judged_failure(self.starter)

    @property
    def surviving_mutants(self) -> list[str]:
        """Mutants the tests did not catch."""
        return [name for name, run in self.mutants.items() if not judged_failure(run)]

    @property
    def failing_alternates(self) -> list[str]:
        """Right answers the tests rejected."""
        return [name for name, run in self.alternates.items() if run.status != "pass"]

    @property
    def skipped(self) -> bool:
        """Nothing ran: the test module skipped itself (Triton not installable here, say)."""
        return self.reference.passed + self.reference.failed == 0 and "skipped" in self.reference.reason

    @property
    def ok(self) -> bool:
        return self.skipped or (
            self.reference_ok and self.starter_ok and not self.surviving_mutants and not self.failing_alternates
        )

    def line(self) -> str:
        ref, start = self.reference, self.starter
        if self.skipped:
            return f"skip {self.drill.id:<24} {self.device:<4}  {ref.reason}"
        ref_text = f"reference {ref.status} {ref.passed}/{ref.passed + ref.failed} in {ref.seconds:.1f} s"
        if not self.reference_ok:
            ref_text += f" ({ref.reason})"
        parts = [ref_text, "starter " + start.status + ("" if self.starter_ok else f" (must fail: {start.reason})")]
        survivors, rejected = self.surviving_mutants, self.failing_alternates
        parts.append(
            f"{len(self.mutants) - len(survivors)}/{len(self.mutants)} mutants caught"
            + "".join(
                f"; mutant {name} not caught ({self.mutants[name].status}: {self.mutants[name].reason})"
                for name in survivors
            )
        )
        if self.alternates:
            parts.append(
                f"{len(self.alternates) - len(rejected)}/{len(self.alternates)} alternates pass"
                + "".join(f"; alternate {name} rejected: {self.alternates[name].reason}" for name in rejected)
            )
        return f"{'ok  ' if self.ok else 'FAIL'} {self.drill.id:<24} {self.device:<4}  " + "; ".join(parts)


def verify(
    kernels_dirs: KernelDirs,
    devices: list[str] | None = None,
    jobs: int = 2,
    on_verdict: Callable[[Verdict], None] | None = None,
    ids: Collection[str] = (),
) -> list[Verdict]:
    """Check every drill (or only those in `ids`) on every device, `jobs` at a time; verdicts come
    back in drill order."""
    from drill.coding.runner.api import run_tests
    from drill.coding.runner.warm import WarmWorker

    devices = devices or (["cpu", "cuda"] if cuda_available() else ["cpu"])
    local = threading.local()
    workers: list[WarmWorker] = []
    lock = threading.Lock()

    def worker() -> WarmWorker:
        if not hasattr(local, "worker"):
            local.worker = WarmWorker()
            with lock:
                workers.append(local.worker)
        return local.worker

    def check(drill: Drill, device: str) -> Verdict:
        run = partial(run_tests, drill, device=device, timeout_s=VERIFY_TIMEOUT_S, benchmark=False, worker=worker())
        reference = run(drill.solution)
        starter = run(drill.starter, maxfail=1)
        mutants = {path.stem: run(path, maxfail=1) for path in drill.mutants}
        alternates = {path.stem: run(path) for path in drill.alternates}
        return Verdict(drill, device, reference, starter, mutants, alternates)

    drills = [drill for drill in load_drills(kernels_dirs) if not ids or drill.id in ids]
    jobs_list = [(drill, device) for drill in drills for device in devices]
    verdicts = []
    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for future in [pool.submit(check, *job) for job in jobs_list]:
                verdict = future.result()
                verdicts.append(verdict)
                if on_verdict is not None:
                    on_verdict(verdict)
    finally:
        for each in workers:
            each.close()
    return verdicts
