"""A sitecustomize that makes named modules unimportable in the processes that get it on
PYTHONPATH: a Python that lacks torch or pytest, on a machine that has them."""

from __future__ import annotations

from pathlib import Path

# On PYTHONPATH, this makes every module named in DRILL_TEST_BLOCK fail to import with the real
# message ("No module named 'torch'"); with DRILL_TEST_BLOCK_RUNNER_ONLY set, only in a test
# process (the runner's `-m drill.coding.sandbox.child` or warm worker), so the app's own check sees nothing.
SITECUSTOMIZE = """
import os, sys

_BLOCKED = set(filter(None, os.environ.get("DRILL_TEST_BLOCK", "").split(",")))
_RUNNER = ("drill.coding.sandbox.child", "drill.coding.runner.worker")
if os.environ.get("DRILL_TEST_BLOCK_RUNNER_ONLY") and not any(name in sys.orig_argv for name in _RUNNER):
    _BLOCKED = set()


class _Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in _BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


if _BLOCKED:
    sys.meta_path.insert(0, _Block())
"""


def blocker(tmp_path: Path) -> Path:
    """A folder holding the sitecustomize, to put on PYTHONPATH."""
    folder = tmp_path / "block"
    folder.mkdir(exist_ok=True)
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    return folder
