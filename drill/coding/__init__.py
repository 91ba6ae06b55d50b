"""Coding drills: load kernels/<id>/, make workspaces, run hidden tests safely, verify, grade.

Nothing here imports Textual or torch; torch is imported only in the test subprocesses and the
warm worker. The app's entry points (imported lazily from their modules):

    drills.load_drills(kernels_dir) -> list[Drill]      drills.find_drill(kernels_dir, id) -> Drill
    workspace.create_workspace(drill, paths.workspaces, now) -> Workspace
    progress.last_unfinished(paths.workspaces, id) -> (Workspace, Progress) | None
    api.run_tests(drill, candidate, device="cpu", timeout_s=60, warm=True, *, benchmark=None,
                  on_test=None, cancel=None) -> TestRun          api.prewarm()
    quality.quality(status, seconds, budget_s, hints_used) -> int
    verify.verify(kernels_dir) -> list[Verdict]     (reference, starter, mutants/, alternates/)

A run crosses two process boundaries: the app side (invocation, cold, warm, supervise, result)
and the test side (child, sandbox, guard, plugin), which talk only through the signed report
(signed.py) and what the supervisor sees of the process tree.
"""

from __future__ import annotations

from importlib import import_module

_EXPORTS = {
    "Drill": "drills", "DrillError": "drills", "load_drills": "drills", "find_drill": "drills", "check": "drills",
    "Workspace": "workspace", "create_workspace": "workspace",
    "TestRun": "result", "TestResult": "result",
    "run_tests": "api", "prewarm": "api", "quality": "quality", "verify": "verify",
}


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(import_module(f"drill.coding.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'drill.coding' has no attribute {name!r}")
