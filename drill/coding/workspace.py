"""Per-attempt workspaces: <workspaces>/<drill id>/<UTC timestamp>/ with solution.py and prompt.md.

The user edits solution.py (a copy of the starter). The hidden tests and the reference
solution are never copied here.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from drill.coding.drills import Drill


@dataclass(frozen=True)
class Workspace:
    """One attempt's folder and the files in it."""

    drill_id: str
    folder: Path
    created_at: datetime

    @property
    def solution(self) -> Path:
        """The file the user edits and the runner tests."""
        return self.folder / "solution.py"

    @property
    def prompt(self) -> Path:
        return self.folder / "prompt.md"


def create_workspace(drill: Drill, workspaces: Path, now: datetime | None = None) -> Workspace:
    """Make a fresh workspace for `drill` under `workspaces` (Paths.workspaces)."""
    created = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    stamp = created.strftime("%Y%m%dT%H%M%SZ")
    parent = workspaces / drill.id
    parent.mkdir(parents=True, exist_ok=True)
    folder, suffix = parent / stamp, 1
    while True:
        try:
            folder.mkdir()
            break
        except FileExistsError:
            suffix += 1
            folder = parent / f"{stamp}-{suffix}"
    workspace = Workspace(drill.id, folder, created)
    shutil.copyfile(drill.starter, workspace.solution)
    shutil.copyfile(drill.prompt, workspace.prompt)
    return workspace
