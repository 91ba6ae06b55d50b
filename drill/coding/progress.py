"""Where an attempt stands, kept beside its workspace so that leaving and coming back resumes it.

<workspaces>/<drill id>/<stamp>.json sits next to the folder <stamp>/ (the folder holds only what
the user works on): the time on the drill's clock, the hints shown, and how the attempt ended —
passed, given up, or discarded (set aside by the user) — or not yet. An attempt that has not
ended is unfinished, and opening its drill again offers it. A workspace without this file (made
before drill kept one) is never offered.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Literal

from drill.coding.workspace import Workspace

Ended = Literal["pass", "gave up", "discarded"]


@dataclass(frozen=True)
class Progress:
    """How far one attempt got: seconds on its clock, hints shown, and how it ended (None: not yet)."""

    seconds: float = 0.0
    hints_used: int = 0
    ended: Ended | None = None

    def as_json(self) -> dict[str, object]:
        return asdict(self)

    def ending(self, ended: Ended) -> Progress:
        return replace(self, ended=ended)


def progress_file(workspace: Workspace) -> Path:
    return workspace.folder.with_name(f"{workspace.folder.name}.json")


def save_progress(workspace: Workspace, progress: Progress) -> None:
    """Write `progress` beside `workspace` (whole or not at all: a crash never leaves half a file)."""
    path = progress_file(workspace)
    partial = path.with_suffix(".json.partial")
    partial.write_text(json.dumps(progress.as_json()), encoding="utf-8")
    os.replace(partial, path)


def read_progress(workspace: Workspace) -> Progress | None:
    """The progress kept beside `workspace`; None when there is none or it cannot be read."""
    try:
        data = json.loads(progress_file(workspace).read_text(encoding="utf-8"))
        return Progress(float(data["seconds"]), int(data["hints_used"]), data["ended"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def last_unfinished(workspaces: Path, drill_id: str) -> tuple[Workspace, Progress] | None:
    """The newest workspace of `drill_id` whose attempt has not ended, with its progress."""
    try:
        folders = [folder for folder in (workspaces / drill_id).iterdir() if folder.is_dir()]
    except OSError:
        return None
    found = [workspace for folder in folders if (workspace := Workspace.at(folder)) is not None]
    for workspace in sorted(found, key=lambda workspace: workspace.order, reverse=True):
        progress = read_progress(workspace)
        if progress is not None and progress.ended is None and workspace.solution.is_file():
            return workspace, progress
    return None
