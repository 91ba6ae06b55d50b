"""`drill kernel verify`: every reference passes and every starter fails, on cpu (and cuda).

Runs in parallel on a few warm workers. A starter "fails" when its tests ran and judged it
(status fail, or error with per-test results): a crash, a timeout or a collection error is a
broken drill, not a failing starter.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache

from drill.coding.drills import Drill, KernelDirs, load_drills
from drill.coding.result import TestRun

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


@dataclass(frozen=True)
class Verdict:
    """One drill on one device: the reference's run and the starter's run."""

    drill: Drill
    device: str
    reference: TestRun
    starter: TestRun

    @property
    def reference_ok(self) -> bool:
        return self.reference.status == "pass"

    @property
    def starter_ok(self) -> bool:
        judged = any(test.outcome in ("failed", "error") for test in self.starter.tests)
        return self.starter.status in ("fail", "error") and judged

    @property
    def skipped(self) -> bool:
        """Nothing ran: the test module skipped itself (Triton not installable here, say)."""
        return self.reference.passed + self.reference.failed == 0 and "skipped" in self.reference.reason

    @property
    def ok(self) -> bool:
        return self.skipped or (self.reference_ok and self.starter_ok)

    def line(self) -> str:
        ref, start = self.reference, self.starter
        if self.skipped:
            return f"skip {self.drill.id:<24} {self.device:<4}  {ref.reason}"
        ref_text = f"reference {ref.status} {ref.passed}/{ref.passed + ref.failed} in {ref.seconds:.1f} s"
        if not self.reference_ok:
            ref_text += f" ({ref.reason})"
        starter_text = f"starter {start.status}" + ("" if self.starter_ok else f" (must fail: {start.reason})")
        return f"{'ok  ' if self.ok else 'FAIL'} {self.drill.id:<24} {self.device:<4}  {ref_text}; {starter_text}"


def verify(kernels_dirs: KernelDirs, devices: list[str] | None = None, jobs: int = 2,
           on_verdict: Callable[[Verdict], None] | None = None, ids: Collection[str] = ()) -> list[Verdict]:
    """Check every drill (or only those in `ids`) on every device, `jobs` at a time; verdicts come
    back in drill order."""
    from drill.coding.api import run_tests
    from drill.coding.warm import WarmWorker

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
        options = dict(device=device, timeout_s=VERIFY_TIMEOUT_S, benchmark=False, worker=worker())
        reference = run_tests(drill, drill.solution, **options)
        starter = run_tests(drill, drill.starter, maxfail=1, **options)
        return Verdict(drill, device, reference, starter)

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
