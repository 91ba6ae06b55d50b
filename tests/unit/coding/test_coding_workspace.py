"""Per-attempt workspaces under DRILL_HOME: the starter and the prompt, never the hidden tests."""

from __future__ import annotations

from datetime import UTC, datetime, timezone
from pathlib import Path

from helpers.coding_toys import write_toy_kernels

from drill.coding.drills import find_drill
from drill.coding.workspace import Workspace, create_workspace
from drill.paths import Paths

NOW = datetime(2026, 11, 22, 15, 0, 7, tzinfo=UTC)


def test_workspace_holds_only_the_starter_and_the_prompt(tmp_path: Path, drill_home: Path) -> None:
    drill = find_drill(write_toy_kernels(tmp_path), "toy-add")
    workspace = create_workspace(drill, Paths.resolve().workspaces, now=NOW)
    assert workspace.folder == drill_home / "workspaces" / "toy-add" / "20261122T150007Z"
    assert sorted(path.name for path in workspace.folder.iterdir()) == ["prompt.md", "solution.py"]
    assert workspace.solution.read_text() == drill.starter.read_text()
    assert workspace.prompt.read_text() == drill.prompt.read_text()
    assert drill.solution.read_text() not in workspace.solution.read_text()


def test_two_attempts_in_the_same_second_get_their_own_folders(tmp_path: Path) -> None:
    drill = find_drill(write_toy_kernels(tmp_path), "toy-add")
    first = create_workspace(drill, tmp_path / "ws", now=NOW)
    first.solution.write_text("edited")
    second = create_workspace(drill, tmp_path / "ws", now=NOW)
    assert first.folder != second.folder and second.folder.name == "20261122T150007Z-2"
    assert first.solution.read_text() == "edited"


def test_local_times_are_stored_as_utc(tmp_path: Path) -> None:
    from datetime import timedelta

    drill = find_drill(write_toy_kernels(tmp_path), "toy-add")
    local = NOW.astimezone(timezone(timedelta(hours=-5)))
    assert create_workspace(drill, tmp_path / "ws", now=local).folder.name == "20261122T150007Z"


def test_a_workspace_is_found_again_from_its_folder(tmp_path: Path) -> None:
    drill = find_drill(write_toy_kernels(tmp_path), "toy-add")
    first = create_workspace(drill, tmp_path / "ws", now=NOW)
    second = create_workspace(drill, tmp_path / "ws", now=NOW)
    assert Workspace.at(first.folder) == first and Workspace.at(second.folder) == second
    assert first.order < second.order
    assert Workspace.at(tmp_path / "ws" / "toy-add" / "notes") is None
