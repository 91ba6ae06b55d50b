"""One test run's inputs: the pytest command line, its environment and a scratch folder.

The same Invocation drives the cold runner (`python -m pytest ...` in a new session) and the
warm worker (pytest.main in a forked child), so both judge a candidate identically.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from drill.coding.drills import Drill
from drill.coding.limits import CUDA_RSS_ALLOWANCE_MB, DEFAULT_GPU_MEMORY_MB, DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_S, MiB

PLUGIN = "drill.coding.plugin"
PACKAGE_PARENT = Path(__file__).resolve().parents[2]  # the folder holding the `drill` package


@dataclass(frozen=True)
class Invocation:
    """Everything one run of a drill's hidden tests against one candidate file needs."""

    drill: Drill
    candidate: Path
    device: str
    scratch: Path
    timeout_s: float = DEFAULT_TIMEOUT_S
    memory_mb: int = DEFAULT_MEMORY_MB
    gpu_memory_mb: int = DEFAULT_GPU_MEMORY_MB
    benchmark: bool = False
    maxfail: int | None = None

    @property
    def report(self) -> Path:
        return self.scratch / "report.jsonl"

    @property
    def output(self) -> Path:
        return self.scratch / "output.txt"

    @property
    def rss_limit(self) -> int | None:
        """cuda runs are watched by resident size (RLIMIT_AS would break CUDA; see limits)."""
        if self.device != "cuda" or self.memory_mb <= 0:
            return None
        return (self.memory_mb + CUDA_RSS_ALLOWANCE_MB) * MiB

    def pytest_args(self) -> list[str]:
        kernels = str(self.drill.kernels_dir)
        args = [str(self.drill.tests), "-p", PLUGIN, "-q", "-p", "no:cacheprovider", "-c", str(self.scratch / "pytest.ini"),
                "--rootdir", kernels, "--confcutdir", kernels, "--tb=short", "--color=no",
                # its clean-up runs gc.collect() five times: 0.7 s in a forked child of a torch process
                "-p", "no:unraisableexception"]
        return args + ([f"--maxfail={self.maxfail}"] if self.maxfail else [])

    def env(self) -> dict[str, str]:
        """The variables to set on top of the caller's environment."""
        path = os.environ.get("PYTHONPATH")
        fixtures = self.drill.conftest  # the shipped one, for a kernels folder without its own
        return {
            "DRILL_FIXTURES": "" if fixtures.parent == self.drill.kernels_dir else str(fixtures),
            "DRILL_CANDIDATE": str(self.candidate),
            "DRILL_SOLUTION": str(self.drill.solution),
            "DRILL_DEVICE": self.device,
            "DRILL_REPORT": str(self.report),
            "DRILL_MEMORY_MB": str(self.memory_mb),
            "DRILL_GPU_MEMORY_MB": str(self.gpu_memory_mb),
            "DRILL_BENCHMARK": "1" if self.benchmark else "0",
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",  # faster, and no third-party plugin can interfere
            "PYTEST_ADDOPTS": "",
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONPATH": str(PACKAGE_PARENT) + (os.pathsep + path if path else ""),
        }

    def cleanup(self) -> None:
        shutil.rmtree(self.scratch, ignore_errors=True)


def prepare(drill: Drill, candidate: Path, device: str, **options) -> Invocation:
    """A fresh scratch folder (the test process's cwd) with an empty pytest.ini, and the Invocation."""
    scratch = Path(tempfile.mkdtemp(prefix=f"drill-{drill.id}-"))
    (scratch / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    return Invocation(drill, Path(candidate).resolve(), device, scratch, **options)
