"""One test run's inputs: a private scratch folder, the run request, and what the run must not see.

prepare() copies what the run needs into a fresh folder that only this user can read:
  scratch/hidden/   the hidden tests and their conftest.py (the reference only for a timing run)
  scratch/work/     a copy of the candidate file: the test process's working directory
  scratch/home/     HOME and DRILL_HOME of the test process; scratch/tmp/ its TMPDIR
  scratch/report.jsonl, scratch/output.txt   the signed report and the process's output
The same request drives the cold runner (`python -m drill.coding.sandbox.child`) and the warm
worker (a forked child), so both judge a candidate identically. The request carries the report's
key; the environment of the test process never names the reference, the hidden folder or the key.
A run's limits default to the values below; its memory is capped on two levels: the test process
caps itself (drill.coding.sandbox.limits), and the supervisor watches the whole tree's resident
memory (rss_limit: memory_mb plus an allowance for Python and torch).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drill.coding.drills import Drill
from drill.coding.processes import PACKAGE_PARENT, MiB, python_path
from drill.coding.sandbox.child import Mode, RunRequest
from drill.coding.sandbox.contain import available
from drill.coding.signed import new_key

DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MEMORY_MB = 4096
DEFAULT_GPU_MEMORY_MB = 16384
CUDA_RSS_ALLOWANCE_MB = 2048  # resident memory of python + torch + a CUDA context, on top of memory_mb
CPU_RSS_ALLOWANCE_MB = 1024  # python + torch (each forked process counts its shared pages again)
REFERENCE = "reference.py"


@dataclass(frozen=True)
class Invocation:
    """Everything one run of a drill's hidden tests against one candidate file needs."""

    drill: Drill
    candidate: Path  # the copy in scratch/work
    device: str
    scratch: Path
    timeout_s: float = DEFAULT_TIMEOUT_S
    memory_mb: int = DEFAULT_MEMORY_MB
    gpu_memory_mb: int = DEFAULT_GPU_MEMORY_MB
    benchmark: bool = False
    maxfail: int | None = None
    key: str = field(default_factory=new_key)
    hide: tuple[str, ...] = ()  # folders the test process must not see (namespaces: mounted over)

    @property
    def report(self) -> Path:
        return self.scratch / "report.jsonl"

    @property
    def output(self) -> Path:
        return self.scratch / "output.txt"

    @property
    def hidden(self) -> Path:
        return self.scratch / "hidden"

    @property
    def tests(self) -> Path:
        return self.hidden / self.drill.tests.name

    @property
    def rss_limit(self) -> int | None:
        """Resident memory of the whole process tree of a run (every process it starts counts)."""
        if self.memory_mb <= 0:
            return None
        allowance = CUDA_RSS_ALLOWANCE_MB if self.device == "cuda" else CPU_RSS_ALLOWANCE_MB
        return (self.memory_mb + allowance) * MiB

    def pytest_args(self) -> list[str]:
        hidden = str(self.hidden)
        args = [
            str(self.tests),
            "-q",
            "-p",
            "no:cacheprovider",
            "-c",
            str(self.hidden / "pytest.ini"),
            "--rootdir",
            hidden,
            "--confcutdir",
            hidden,
            "--import-mode=importlib",
            "--tb=short",
            "--color=no",
            # its clean-up runs gc.collect() five times: 0.7 s in a forked child of a torch process
            "-p",
            "no:unraisableexception",
        ]
        return args + ([f"--maxfail={self.maxfail}"] if self.maxfail else [])

    def env(self) -> dict[str, str]:
        """The test process's whole environment: the caller's, less drill's own and pytest's
        variables, with HOME, DRILL_HOME and TMPDIR inside the scratch folder."""
        keep = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("DRILL_", "PYTEST_", "XDG_")) and name not in ("HOME", "TMPDIR", "PYTHONPATH")
        }
        home = self.scratch / "home"
        triton_cache = os.environ.get("TRITON_CACHE_DIR") or str(Path.home() / ".triton" / "cache")
        return {
            **keep,
            "HOME": str(home),
            "DRILL_HOME": str(home / "drill"),
            "TMPDIR": str(self.scratch / "tmp"),
            "TRITON_CACHE_DIR": triton_cache,
            "DRILL_CANDIDATE": str(self.candidate),
            "DRILL_DEVICE": self.device,
            "DRILL_MEMORY_MB": str(self.memory_mb),
            "DRILL_GPU_MEMORY_MB": str(self.gpu_memory_mb),
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",  # faster, and no third-party plugin can interfere
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONPATH": python_path(),
        }

    def request(self, mode: Mode = "test") -> RunRequest:
        """The run request for the child (see drill.coding.sandbox.child); mode "test" or "time"."""
        return {
            "op": "run",
            "mode": mode,
            "args": self.pytest_args(),
            "env": self.env(),
            "cwd": str(self.candidate.parent),
            "output": str(self.output),
            "report": str(self.report),
            "key": self.key,
            "hidden": str(self.hidden),
            "reference": str(self.hidden / REFERENCE),  # there only for a timing run (for_timing)
            "candidate": str(self.candidate),
            "hide": list(self.hide),
            "timeout_s": self.timeout_s,
            "rss_limit": self.rss_limit,
            "memory_mb": self.memory_mb,
            "gpu_memory_mb": self.gpu_memory_mb,
            "device": self.device,
            # DRILL_SANDBOX=off tries the fallback a machine without user namespaces gets (tests)
            "namespaces": os.environ.get("DRILL_SANDBOX") != "off" and available().namespaces,
        }

    def for_timing(self) -> Invocation:
        """The same run, set up to time candidate and reference (after a pass): a fresh key and
        report, and the reference copied beside the tests."""
        shutil.copyfile(self.drill.solution, self.hidden / REFERENCE)
        self.report.unlink(missing_ok=True)
        return Invocation(
            self.drill,
            self.candidate,
            self.device,
            self.scratch,
            self.timeout_s,
            self.memory_mb,
            self.gpu_memory_mb,
            True,
            None,
            new_key(),
            self.hide,
        )

    def cleanup(self) -> None:
        shutil.rmtree(self.scratch, ignore_errors=True)


def _covers(folder: Path, path: Path) -> bool:
    return path == folder or folder in path.parents


def hidden_folders(drill: Drill, scratch: Path) -> tuple[str, ...]:
    """What the test process must not see: every kernels folder (references, tests, mutants) and
    drill's state folder (the database, workspaces, backups). A folder that holds this Python,
    the drill package or the scratch folder is left visible: hiding it would break the run."""
    from drill.paths import Paths

    paths = Paths.resolve()
    wanted = {drill.kernels_dir, *paths.kernel_dirs(), paths.home}
    needed = [
        scratch,
        PACKAGE_PARENT / "drill",
        Path(sys.prefix),
        Path(sys.base_prefix),
        *(Path(entry) for entry in sys.path if entry),
    ]
    found = []
    for folder in sorted(wanted):
        folder = folder.expanduser().resolve()
        if folder.is_dir() and not any(_covers(folder, need.resolve()) for need in needed):
            found.append(str(folder))
    return tuple(found)


def prepare(drill: Drill, candidate: Path, device: str, **options: Any) -> Invocation:
    """A fresh private scratch folder holding copies of the tests and the candidate, and the Invocation."""
    scratch = Path(tempfile.mkdtemp(prefix=f"drill-{drill.id}-"))  # mode 0700
    hidden, work = scratch / "hidden", scratch / "work"
    for folder in (hidden, work, scratch / "home" / "drill", scratch / "tmp"):
        folder.mkdir(parents=True)
    (hidden / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    shutil.copyfile(drill.tests, hidden / drill.tests.name)
    shutil.copyfile(drill.conftest, hidden / "conftest.py")
    copy = work / Path(candidate).name
    shutil.copyfile(candidate, copy)
    return Invocation(drill, copy, device, scratch, hide=hidden_folders(drill, scratch), **options)
