"""An attempt's progress, kept beside its workspace: the newest unfinished one is offered again."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from helpers.coding_toys import write_toy_kernels

from drill.coding.drills import find_drill
from drill.coding.progress import Progress, last_unfinished, progress_file, read_progress, save_progress
from drill.coding.workspace import create_workspace

NOW = datetime(2026, 11, 22, 15, 0, 7, tzinfo=UTC)


def workspaces(tmp_path: Path, *progresses: Progress | None):
    """One workspace per progress (None: none kept), a minute apart, oldest first."""
    drill = find_drill(write_toy_kernels(tmp_path), "toy-add")
    made = []
    for n, progress in enumerate(progresses):
        workspace = create_workspace(drill, tmp_path / "ws", now=NOW + timedelta(minutes=n))
        if progress is not None:
            save_progress(workspace, progress)
        made.append(workspace)
    return made


def test_progress_is_kept_beside_the_workspace_not_in_it(tmp_path: Path) -> None:
    [workspace] = workspaces(tmp_path, Progress(125.5, 2))
    assert progress_file(workspace).parent == workspace.folder.parent
    assert sorted(path.name for path in workspace.folder.iterdir()) == ["prompt.md", "solution.py"]
    assert read_progress(workspace) == Progress(125.5, 2, None)
    save_progress(workspace, read_progress(workspace).ending("pass"))
    assert read_progress(workspace) == Progress(125.5, 2, "pass")


def test_the_newest_unfinished_attempt_is_offered(tmp_path: Path) -> None:
    older, newer, _ended = workspaces(tmp_path, Progress(60.0), Progress(30.0, 1), Progress(90.0, 0, "gave up"))
    assert last_unfinished(tmp_path / "ws", "toy-add") == (newer, Progress(30.0, 1))
    save_progress(newer, Progress(30.0, 1).ending("discarded"))
    assert last_unfinished(tmp_path / "ws", "toy-add") == (older, Progress(60.0))


def test_ended_unknown_or_unreadable_attempts_are_not_offered(tmp_path: Path) -> None:
    _passed, unknown, broken = workspaces(tmp_path, Progress(1.0, 0, "pass"), None, Progress(2.0))
    progress_file(broken).write_text("{not json")
    assert read_progress(broken) is None and read_progress(unknown) is None
    assert last_unfinished(tmp_path / "ws", "toy-add") is None
    assert last_unfinished(tmp_path / "ws", "no-such-drill") is None
