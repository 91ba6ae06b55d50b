"""Per-attempt workspaces: <workspaces>/<drill id>/<UTC timestamp>/ with solution.py and prompt.md.

The user edits solution.py (a copy of the starter). The hidden tests and the reference
solution are never copied here. The timestamp is the caller's clock (the app's, which tests
freeze), never this machine's own.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from drill.coding.drills import Drill

STAMP = "%Y%m%dT%H%M%SZ"
FOLDER_NAME = re.compile(r"(?P<stamp>\d{8}T\d{6}Z)(?:-(?P<n>\d+))?")


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

    @classmethod
    def at(cls, folder: Path) -> Workspace | None:
        """The workspace in `folder` (named by create_workspace), or None for any other folder."""
        if not (match := FOLDER_NAME.fullmatch(folder.name)):
            return None
        created = datetime.strptime(match["stamp"], STAMP).replace(tzinfo=UTC)
        return cls(folder.parent.name, folder, created)

    @property
    def order(self) -> tuple[datetime, int]:
        """Sorts workspaces oldest first, attempts made in the same second by their suffix."""
        match = FOLDER_NAME.fullmatch(self.folder.name)
        assert match is not None  # at() and create_workspace() make workspaces only in folders so named
        return self.created_at, int(match["n"] or 1)


def create_workspace(drill: Drill, workspaces: Path, now: datetime) -> Workspace:
    """Make a fresh workspace for `drill` under `workspaces` (Paths.workspaces), stamped `now`."""
    created = now.astimezone(UTC).replace(microsecond=0)
    stamp = created.strftime(STAMP)
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
